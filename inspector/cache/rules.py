"""Provider prompt-caching rules as data: load ``resources/provider_rules.toml``, merge a user's
override file over it, validate, and resolve the rules for one (provider, protocol, model).

The analysis never holds a provider number of its own: minimum lengths, steps, breakpoint
limits, TTLs, multipliers, prices and the tokenizer all come from a :class:`CacheRules` built
here, and each carries the family and model pattern it came from so a report can say why.

Override order: the shipped table, then the file named by ``--rules`` or, when that is not
given, by the environment variable ``PROMPT_INSPECTOR_RULES``. Family keys in the user file
replace the shipped ones; the user's ``models`` entries are tried before the shipped ones.

Evidence: a family or model entry may say, in ``evidence.<key>``, where each of its numbers comes
from (``source``), when that was checked (``checked``), and, where sources disagree, that the value
is ``contested``, with the ``alternatives`` and ``why`` the value was chosen. Prices may change over
time: ``prices`` lists periods (``from`` / ``until``, both days included) with the input price and
read multiplier in force then, and a request is priced by the period holding its own date. Both are
optional, so an override file written before them still loads as it did.

Model limits: ``[[model_limits]]`` rows give each model's context window and output ceiling with
their source (parsed by :mod:`inspector.cache.model_limits`); the user's rows are tried first, and
:meth:`RuleSet.limits_for` answers None for a model no row matches.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import fnmatch
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from resources import resource_path

from inspector.cache.cache_keys import CacheKey, merge_cache_keys, parse_cache_keys, top_level_fields
from inspector.cache.model_limits import ModelLimits, match_limits, parse_model_limits
from inspector.inputs import InputFileError, refuse_special_file
from inspector.messages import localized, marked
from inspector.tokens import ENCODING_HASHES

ENV_VAR = "PROMPT_INSPECTOR_RULES"
DEFAULT_RULES_PATH = resource_path("provider_rules.toml")
SCHEMA_VERSION = 1

MODES = ("automatic", "explicit")
GRANULARITIES = ("step", "units", "exact", "breakpoints")


class RulesError(ValueError):
    """A rules file that cannot be used; the message names the file and the key."""


# key -> (kind, description) ; kinds: str, strs, int, num, mode, granularity, tokenizer, ttl_map, num_map
_FAMILY_KEYS: dict[str, str] = {
    "description": "str",
    "providers": "strs",
    "protocols": "strs",
    "mode": "mode",
    "min_cacheable_tokens": "int",
    "granularity": "granularity",
    "step_tokens": "pos_int",
    "unit_tokens": "pos_int",
    "max_breakpoints": "pos_int",
    "lookback_blocks": "int",
    "ttl_seconds": "pos_num",
    "ttl_options": "pos_num_map",
    "extended_ttl_seconds": "pos_num",
    "read_multiplier": "num",
    "write_multiplier": "num",
    "write_multipliers": "num_map",
    "input_price_per_mtok": "num",
    "tokenizer": "tokenizer",
    "image_tokens": "int",
    "routing_prefix_tokens": "pos_int",
    "overflow_requests_per_minute": "pos_num",
    "proxy_token_error": "num",
    "expiry_grace_seconds": "num",
    "sources": "strs",
    "notes": "str",
    "evidence": "evidence",
    "prices": "prices",
}
# Keys a model entry may not set: they choose the family, which is already chosen.
_FAMILY_ONLY = frozenset({"providers", "protocols", "description"})
_MODEL_KEYS = {"match": "patterns", **{k: v for k, v in _FAMILY_KEYS.items() if k not in _FAMILY_ONLY}}
# ``cache_keys``: the request options that key each cache level, read and checked by
# :mod:`inspector.cache.cache_keys`.
# ``model_limits``: each model's context window and output ceiling (inspector.cache.model_limits).
_TOP_KEYS = {"schema", "default_family", "families", "cache_keys", "model_limits"}

# What a value of each kind must be, as an error says it (``choices``: the kind's allowed words).
_EXPECTED = {
    "str": marked("a string"),
    "strs": marked("a list of strings"),
    "patterns": marked("a non-empty list of glob patterns"),
    "int": marked("a whole number, 0 or more"),
    "pos_int": marked("a whole number, 1 or more"),
    "num": marked("a number, 0 or more"),
    "pos_num": marked("a number above 0"),
    "mode": marked("one of {choices}"),
    "granularity": marked("one of {choices}"),
    "tokenizer": marked("one of {choices}"),
    "num_map": marked("a table of names to numbers, 0 or more"),
    "pos_num_map": marked("a table of names to numbers above 0"),
    "evidence": marked("a table of rule keys to tables of source, checked, contested, alternatives, why"),
    "prices": marked("an array of tables of from, until, input_price_per_mtok, read_multiplier, source, checked"),
}
_CHOICES = {"mode": MODES, "granularity": GRANULARITIES, "tokenizer": tuple(ENCODING_HASHES)}


def _expected(kind: str) -> str:
    """What a value of ``kind`` must be, in the locale's language."""
    return localized(_EXPECTED[kind], choices=", ".join(_CHOICES.get(kind, ())))

# What ``evidence.<key>`` may say about a number, and what each must be.
_EVIDENCE_KEYS = {"source": "str", "checked": "day", "contested": "bool", "alternatives": "values", "why": "str"}
# What a price period may say.
_PRICE_KEYS = {"from": "day", "until": "day", "input_price_per_mtok": "num", "read_multiplier": "num",
               "source": "str", "checked": "day"}
_PRICED = ("input_price_per_mtok", "read_multiplier")  # the keys a price period sets


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _day(value: Any) -> str | None:
    """A TOML date or a ``YYYY-MM-DD`` string as ``YYYY-MM-DD`` (None when it is neither)."""
    if isinstance(value, datetime.datetime):
        return None
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value).isoformat() if len(value) == 10 else None
        except ValueError:
            return None
    return None


def _valid_fields(table: Any, allowed: Mapping[str, str]) -> bool:
    if not isinstance(table, dict) or not set(table) <= set(allowed):
        return False
    for key, value in table.items():
        kind = allowed[key]
        if kind == "day":
            ok = _day(value) is not None
        elif kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "values":
            ok = isinstance(value, list) and all(_is_number(v) or isinstance(v, str) for v in value)
        else:
            ok = _valid(kind, value)
        if not ok:
            return False
    return True


def _valid(kind: str, value: Any) -> bool:
    if kind == "evidence":
        return isinstance(value, dict) and all(
            k in _FAMILY_KEYS and _valid_fields(v, _EVIDENCE_KEYS) for k, v in value.items())
    if kind == "prices":
        return isinstance(value, list) and all(
            _valid_fields(v, _PRICE_KEYS) and any(k in v for k in _PRICED)
            and (_day(v.get("from", "0001-01-01")) or "") <= (_day(v.get("until", "9999-12-31")) or "")
            for v in value)
    if kind == "str":
        return isinstance(value, str)
    if kind == "strs":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "patterns":
        return isinstance(value, list) and bool(value) and all(isinstance(v, str) and v for v in value)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind == "pos_int":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 1
    if kind == "num":
        return _is_number(value) and value >= 0
    if kind == "pos_num":
        return _is_number(value) and value > 0
    if kind == "mode":
        return value in MODES
    if kind == "granularity":
        return value in GRANULARITIES
    if kind == "tokenizer":
        return value in ENCODING_HASHES
    if kind in ("num_map", "pos_num_map"):
        positive = kind == "pos_num_map"
        return isinstance(value, dict) and all(
            isinstance(k, str) and _is_number(v) and (v > 0 if positive else v >= 0) for k, v in value.items()
        )
    raise AssertionError(kind)


def _unknown_key(where: str, key: str, allowed: Mapping[str, Any] | set[str]) -> str:
    close = difflib.get_close_matches(key, list(allowed), n=1)
    if close:
        return localized("{where}{key}: unknown key; did you mean {close}?", where=where, key=key, close=repr(close[0]))
    return localized("{where}{key}: unknown key", where=where, key=key)


def _check_table(table: Any, where: str, allowed: Mapping[str, str], errors: list[str]) -> None:
    if not isinstance(table, dict):
        errors.append(localized("{where}: expected a table", where=where.rstrip(".")))
        return
    for key, value in table.items():
        if key == "models" and allowed is _FAMILY_KEYS:
            continue
        kind = allowed.get(key)
        if kind is None:
            errors.append(_unknown_key(where, key, allowed))
        elif not _valid(kind, value):
            errors.append(localized("{where}{key}: expected {what}, got {value}", where=where, key=key,
                                    what=_expected(kind), value=repr(value)))


def _check_document(doc: Any, errors: list[str]) -> None:
    """Shape and value checks of one file (shipped or user), before merging."""
    for key in doc:
        if key not in _TOP_KEYS:
            errors.append(_unknown_key("", key, _TOP_KEYS))
    if "schema" in doc and doc["schema"] != SCHEMA_VERSION:
        errors.append(localized("schema: this version reads schema {version}, the file says {value}",
                                version=SCHEMA_VERSION, value=repr(doc["schema"])))
    if "default_family" in doc and not isinstance(doc["default_family"], str):
        errors.append(localized("default_family: expected a string, got {value}", value=repr(doc["default_family"])))
    for parse, key in ((parse_cache_keys, "cache_keys"), (parse_model_limits, "model_limits")):
        try:
            parse(doc.get(key))
        except ValueError as exc:
            errors.append(str(exc))
    families = doc.get("families", {})
    if not isinstance(families, dict):
        errors.append(localized("families: expected a table of families"))
        return
    for name, family in families.items():
        where = f"families.{name}."
        _check_table(family, where, _FAMILY_KEYS, errors)
        if not isinstance(family, dict):
            continue
        models = family.get("models", [])
        if not isinstance(models, list):
            errors.append(localized("{where}models: expected an array of tables ([[families.{name}.models]])",
                                    where=where, name=name))
            continue
        for i, model in enumerate(models):
            mwhere = f"{where}models[{i}]."
            _check_table(model, mwhere, _MODEL_KEYS, errors)
            if isinstance(model, dict) and "match" not in model:
                errors.append(localized("{where}match: missing (a list of glob patterns on the model id)",
                                        where=mwhere))


def _merge(base: dict, user: dict) -> dict:
    merged = {k: v for k, v in base.items() if k != "families"}
    for key in ("schema", "default_family"):
        if key in user:
            merged[key] = user[key]
    # cache_keys are merged per wire protocol once parsed (inspector.cache.cache_keys.merge_cache_keys).
    merged.pop("cache_keys", None)
    # model_limits: the user's rows first, so the first matching pattern is theirs.
    if "model_limits" in user:
        merged["model_limits"] = list(user["model_limits"]) + list(base.get("model_limits", []))
    families = {name: dict(fam) for name, fam in base.get("families", {}).items()}
    for name, fam in user.get("families", {}).items():
        target = families.setdefault(name, {})
        for key, value in fam.items():
            if key == "models":
                # The user's entries first: the first matching pattern wins.
                target["models"] = list(value) + list(target.get("models", []))
            elif isinstance(value, dict) and isinstance(target.get(key), dict):
                target[key] = {**target[key], **value}
            else:
                target[key] = value
    merged["families"] = families
    return merged


def _required(family: dict, name: str, errors: list[str], where: str) -> None:
    """Keys the analysis needs once everything is merged."""
    need = ["mode", "min_cacheable_tokens", "granularity", "ttl_seconds", "read_multiplier",
            "write_multiplier", "tokenizer", "image_tokens"]
    for key in need:
        if key not in family:
            errors.append(localized("{where}{key}: missing (needed by every family)", where=where, key=key))
    granularity = family.get("granularity")
    if granularity == "step" and "step_tokens" not in family:
        errors.append(localized("{where}step_tokens: missing (needed by granularity \"step\")", where=where))
    mode = family.get("mode")
    if mode == "explicit":
        for key in ("max_breakpoints", "lookback_blocks"):
            if key not in family:
                errors.append(localized("{where}{key}: missing (needed by mode \"explicit\")", where=where, key=key))
        if granularity is not None and granularity != "breakpoints":
            errors.append(localized("{where}granularity: mode \"explicit\" needs granularity \"breakpoints\", got "
                                    "{value}", where=where, value=repr(granularity)))
    elif mode == "automatic" and granularity == "breakpoints":
        errors.append(localized("{where}granularity: \"breakpoints\" needs mode \"explicit\"", where=where))
    if "overflow_requests_per_minute" in family and "routing_prefix_tokens" not in family:
        errors.append(localized("{where}routing_prefix_tokens: missing (needed by overflow_requests_per_minute)",
                                where=where))


@dataclass(frozen=True, slots=True)
class CacheRules:
    """The rules in force for one model, every value traceable to the table."""

    family: str
    model_pattern: str | None  # the ``match`` pattern that chose the model entry, if any
    mode: str
    min_cacheable_tokens: int
    granularity: str
    step_tokens: int | None
    unit_tokens: int | None
    max_breakpoints: int | None
    lookback_blocks: int | None
    ttl_seconds: float
    ttl_options: Mapping[str, float]
    extended_ttl_seconds: float | None
    read_multiplier: float
    write_multiplier: float
    write_multipliers: Mapping[str, float]
    input_price_per_mtok: float | None
    tokenizer: str
    image_tokens: int
    # Automatic caching routes a request by a hash of its first tokens (and cache key); past this
    # many requests a minute with the same route, some go to machines without the cache.
    routing_prefix_tokens: int | None = None
    overflow_requests_per_minute: float | None = None
    # (first day, last day, {key: value}) of each dated price period, ISO days, None: open-ended
    prices: tuple[tuple[str | None, str | None, Mapping[str, float]], ...] = ()
    # The relative error of a proxy token count (None: no band), and the seconds past the default
    # TTL an entry has been seen to survive (None: no grace band): a verdict within either band is
    # uncertain (inspector.cache.verdicts).
    proxy_token_error: float | None = None
    expiry_grace_seconds: float | None = None
    # rule key -> what the table says of its value (source, checked, contested, alternatives, why)
    evidence: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # The request options that key a cache level on this request's wire (the ``[cache_keys]``
    # section, the user's rows included), and the body members holding them.
    keyed_options: tuple[CacheKey, ...] = ()
    keyed_fields: frozenset[str] = frozenset()

    def price_period(self, when: str | None) -> int | None:
        """The index of the price period holding the day of ``when`` (an ISO date or timestamp),
        None when no period holds it (the undated values apply)."""
        day = when[:10] if when else None
        if day is None or _day(day) is None:
            return None
        for index, (first, last, _) in enumerate(self.prices):
            if (first is None or first <= day) and (last is None or day <= last):
                return index
        return None

    def on(self, when: str | None) -> CacheRules:
        """These rules with the price in force on the day of ``when``."""
        index = self.price_period(when)
        if index is None:
            return self
        return dataclasses.replace(self, **{k: float(v) for k, v in self.prices[index][2].items()})

    @property
    def source(self) -> str:
        """Where the values came from, for reports: ``family`` or ``family/pattern``."""
        return self.family if self.model_pattern is None else f"{self.family}/{self.model_pattern}"

    def ttl_for(self, option: str | None) -> float:
        """TTL of an explicit breakpoint whose ``cache_control.ttl`` is ``option``."""
        if option is not None and option in self.ttl_options:
            return float(self.ttl_options[option])
        return float(self.ttl_seconds)

    def write_multiplier_for(self, option: str | None) -> float:
        if option is not None and option in self.write_multipliers:
            return float(self.write_multipliers[option])
        return float(self.write_multiplier)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "mode": self.mode,
            "minCacheableTokens": self.min_cacheable_tokens,
            "granularity": self.granularity,
            "stepTokens": self.step_tokens,
            "unitTokens": self.unit_tokens,
            "maxBreakpoints": self.max_breakpoints,
            "lookbackBlocks": self.lookback_blocks,
            "ttlSeconds": int(self.ttl_seconds) if float(self.ttl_seconds).is_integer() else self.ttl_seconds,
            "readMultiplier": self.read_multiplier,
            "writeMultiplier": self.write_multiplier,
            "inputPricePerMTok": self.input_price_per_mtok,
            "tokenizer": self.tokenizer,
            "routingPrefixTokens": self.routing_prefix_tokens,
            "overflowRequestsPerMinute": self.overflow_requests_per_minute,
        }


def over_routing_limit(rules: CacheRules, rate: int | None) -> bool:
    """More requests (``rate``) went on a route in a minute than one machine takes, by ``rules``."""
    limit = rules.overflow_requests_per_minute
    return limit is not None and rate is not None and rate > limit


def normalise_model(model: str | None) -> str:
    """The model id as patterns see it: lower case, without an OpenRouter-style ``vendor/``."""
    name = (model or "").strip().lower()
    return name.rsplit("/", 1)[1] if "/" in name else name


@dataclass(slots=True)
class RuleSet:
    """A validated, merged rules table. Resolution results are memoised (a session asks for the
    same few models thousands of times)."""

    default_family: str
    families: dict[str, dict[str, Any]]
    paths: tuple[Path, ...]
    # wire protocol -> the options that key a cache level on it (inspector.cache.cache_keys)
    cache_keys: dict[str, tuple[CacheKey, ...]] = field(default_factory=dict)
    # each model's context window and output ceiling, the user's rows first
    model_limits: tuple[ModelLimits, ...] = ()
    _memo: dict[tuple[str, str, str], CacheRules] = field(default_factory=dict, repr=False)
    _dated: dict[tuple[str, str, str, int], CacheRules] = field(default_factory=dict, repr=False)

    def limits_for(self, model: str | None) -> tuple[ModelLimits, str] | None:
        """The context window and output ceiling of ``model`` with the pattern that chose them;
        None when the table does not know the model (no guess)."""
        return match_limits(self.model_limits, normalise_model(model))

    def family_for(self, provider: str | None, protocol: str | None) -> str:
        wanted = (provider or "").strip().lower()
        if wanted:
            for name, fam in self.families.items():
                if wanted in (p.lower() for p in fam.get("providers", ())):
                    return name
        if protocol:
            for name, fam in self.families.items():
                if protocol in fam.get("protocols", ()):
                    return name
        return self.default_family

    def resolve(self, provider: str | None, protocol: str | None, model: str | None,
                when: str | None = None) -> CacheRules:
        """The rules for the model; with ``when`` (the request's date), priced on that day."""
        rules = self._resolve(provider, protocol, model)
        if when is None or not rules.prices:
            return rules
        index = rules.price_period(when)
        if index is None:
            return rules
        key = ((provider or "").lower(), protocol or "", model or "", index)
        found = self._dated.get(key)
        if found is None:
            found = self._dated[key] = rules.on(when)
        return found

    def _resolve(self, provider: str | None, protocol: str | None, model: str | None) -> CacheRules:
        key = ((provider or "").lower(), protocol or "", model or "")
        found = self._memo.get(key)
        if found is not None:
            return found
        family_name = self.family_for(provider, protocol)
        family = self.families[family_name]
        values = {k: v for k, v in family.items() if k not in ("models",) and k not in _FAMILY_ONLY}
        pattern = None
        name = normalise_model(model)
        for entry in family.get("models", ()):
            hit = next((p for p in entry["match"] if fnmatch.fnmatchcase(name, p.lower())), None)
            if hit is not None:
                pattern = hit
                evidence = {**values.get("evidence", {}), **entry.get("evidence", {})}
                if any(k in entry for k in _PRICED) and "prices" not in entry:
                    # The model's own price replaces the family's dated ones.
                    values.pop("prices", None)
                values.update({k: v for k, v in entry.items() if k != "match"})
                values["evidence"] = evidence
                break
        keyed = self.cache_keys.get(protocol or "", ())
        rules = CacheRules(
            family=family_name,
            model_pattern=pattern,
            mode=values["mode"],
            min_cacheable_tokens=int(values["min_cacheable_tokens"]),
            granularity=values["granularity"],
            step_tokens=values.get("step_tokens"),
            unit_tokens=values.get("unit_tokens"),
            max_breakpoints=values.get("max_breakpoints"),
            lookback_blocks=values.get("lookback_blocks"),
            ttl_seconds=float(values["ttl_seconds"]),
            ttl_options=dict(values.get("ttl_options", {})),
            extended_ttl_seconds=values.get("extended_ttl_seconds"),
            read_multiplier=float(values["read_multiplier"]),
            write_multiplier=float(values["write_multiplier"]),
            write_multipliers=dict(values.get("write_multipliers", {})),
            input_price_per_mtok=values.get("input_price_per_mtok"),
            tokenizer=values["tokenizer"],
            image_tokens=int(values["image_tokens"]),
            routing_prefix_tokens=values.get("routing_prefix_tokens"),
            overflow_requests_per_minute=values.get("overflow_requests_per_minute"),
            proxy_token_error=values.get("proxy_token_error"),
            expiry_grace_seconds=values.get("expiry_grace_seconds"),
            prices=tuple((_day(p["from"]) if "from" in p else None, _day(p["until"]) if "until" in p else None,
                          {k: p[k] for k in _PRICED if k in p})
                         for p in values.get("prices", ())),
            evidence={k: {f: _day(v) if f == "checked" else v for f, v in e.items()}
                      for k, e in values.get("evidence", {}).items()},
            keyed_options=keyed,
            keyed_fields=top_level_fields(keyed),
        )
        self._memo[key] = rules
        return rules


def _read(path: Path) -> dict:
    try:
        refuse_special_file(path)  # a FIFO or a device would block the read forever
        data = path.read_bytes()
    except InputFileError as exc:
        raise RulesError(str(exc)) from None
    except FileNotFoundError:
        raise RulesError(localized("{path}: no such rules file", path=path)) from None
    except OSError as exc:
        raise RulesError(localized("{path}: cannot be read: {error}", path=path, error=exc.strerror)) from None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RulesError(localized("{path}: not UTF-8 text ({reason} at byte {offset})", path=path, reason=exc.reason,
                                   offset=exc.start)) from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(localized("{path}: not valid TOML: {problem}", path=path, problem=exc)) from None


def _fail(path: Path, errors: list[str]) -> RulesError:
    shown = errors[:12]
    more = ""
    if len(errors) > len(shown):
        more = "\n  " + localized("… and {count} more", count=len(errors) - len(shown))
    return RulesError(localized("{path}: invalid rules:", path=path) + "\n  " + "\n  ".join(shown) + more)


def load_rules(user_path: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None,
               base_path: str | os.PathLike[str] | None = None) -> RuleSet:
    """The shipped table with the user's file merged over it.

    ``user_path`` (``--rules``) wins over ``$PROMPT_INSPECTOR_RULES``; an empty variable counts as
    unset. Raises :class:`RulesError` naming the file and every offending key.
    """
    base = Path(base_path) if base_path is not None else DEFAULT_RULES_PATH
    doc = _read(base)
    errors: list[str] = []
    _check_document(doc, errors)
    if errors:
        raise _fail(base, errors)
    paths = [base]
    keys = parse_cache_keys(doc.get("cache_keys"))
    environ = os.environ if env is None else env
    chosen = user_path if user_path is not None else (environ.get(ENV_VAR) or None)
    last = base
    if chosen is not None:
        user_file = Path(chosen).expanduser()
        user = _read(user_file)
        _check_document(user, errors)
        if errors:
            raise _fail(user_file, errors)
        doc = _merge(doc, user)
        keys = merge_cache_keys(keys, parse_cache_keys(user.get("cache_keys")))
        paths.append(user_file)
        last = user_file
    families = doc.get("families", {})
    if not families:
        raise _fail(last, [localized("families: no family defined")])
    for name, family in families.items():
        before = len(errors)
        _required(family, name, errors, f"families.{name}.")
        if len(errors) > before:
            # A family-level gap would repeat for every model entry; report it once.
            continue
        for i, model in enumerate(family.get("models", ())):
            merged = {**family, **{k: v for k, v in model.items() if k != "match"}}
            _required(merged, name, errors, f"families.{name}.models[{i}].")
    default = doc.get("default_family")
    if default is None:
        errors.append(localized("default_family: missing"))
    elif default not in families:
        errors.append(localized("default_family: {value} is not one of the families ({families})", value=repr(default),
                                families=", ".join(families)))
    if errors:
        raise _fail(last, errors)
    return RuleSet(default_family=default, families=families, paths=tuple(paths), cache_keys=keys,
                   model_limits=parse_model_limits(doc.get("model_limits")))


_default: RuleSet | None = None


def default_rules() -> RuleSet:
    """The shipped table alone (no user file), loaded once."""
    global _default
    if _default is None:
        _default = load_rules(env={})
    return _default
