"""A session analysed once: the cache analysis's results kept in the user's cache folder.

A finished analysis (its pairs, findings, runtime summaries and warnings) is written to
``<cache dir>/cache-analysis/<store key>/<session key>.kept``: the store key is the store's
identity as the search index files it (:func:`inspector.cache_folder.store_identity`: for a file
its real path, device and inode; for a server its URL without the password), the session key a
hash of the session id. Nothing is ever written beside the user's database.

The file is filed under the store and session and is valid only for the same rules table (a
hash of the merged table, :func:`rules_hash`), the same program version and :data:`FORMAT`, and
the same rows: the store's state when the analysis began (:class:`Mark`): the database file's
state as the search index records it (size, modification time and a hash of the first pages, of
the file and its ``-wal``), the session's trace row count, and the write-order keys of a few of
the requests analysed. Unchanged file: the results are the answer, with no query. Changed file
(another session written, a checkpoint) with the session's rows the same: still the answer. More
rows with the analysed ones in place: *grown* (the app shows the kept table, then analyses again
and merges; the command line analyses again). Anything else, e.g. a rewritten store whose keys
moved: analysed again. An analysis restricted to one runtime is never kept.

The file: a magic line, a JSON header line (format, program version, store, session, rules,
mark, the pair fields, the body's length and CRC-32), then the zlib-compressed JSON body with the
pairs as columns (one list per :class:`CachePair` field; ``rules`` is resolved again from the
rules table, which the hash makes the same). Everything is checked before it is used: the
magic, each header value, the length and checksum, the decompressed size, and every column's
length and value types; a file failing any check is ignored (one warning per file and process)
and the session analysed again. Files are written atomically (:mod:`inspector.files`), at most
:data:`MAX_FILE_BYTES` each, and the folder is kept under :data:`FOLDER_LIMIT_BYTES` by removing
the files used least recently.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import threading
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from inspector import __version__
from inspector.cache.results import (
    WORKER_FAILED,
    CacheAnalysis,
    CachePair,
    Finding,
    RuntimeSummary,
)
from inspector.cache.rules import RuleSet
from inspector.cache_folder import (
    beside_database,
    default_cache_dir,
    file_state,
    prune,
    store_identity,
    touch,
)
from inspector.collector import fewer_collections

__all__ = ["FOLDER", "FOLDER_LIMIT_BYTES", "FORMAT", "MAX_FILE_BYTES", "Kept", "KeptAnalyses", "Mark", "Resumed",
           "analyses_of", "rules_hash"]

FORMAT = 1
FOLDER = "cache-analysis"
_MAGIC = b"prompt-inspector kept cache analysis\n"
_SUFFIX = ".kept"
MAX_FILE_BYTES = 64 << 20  # a kept file is at most this long (compressed); a bigger one is not kept
_MAX_BODY_BYTES = 16 * MAX_FILE_BYTES  # decompressed, at most (a zlib bomb stops here)
FOLDER_LIMIT_BYTES = 512 << 20
_MAX_HEADER_BYTES = 1 << 16
_ANCHORS = 3  # requests whose write-order keys show the analysed rows are still in place

_PAIR_FIELDS = tuple(f.name for f in dataclasses.fields(CachePair))
_FINDING_FIELDS = tuple(f.name for f in dataclasses.fields(Finding))
_SUMMARY_FIELDS = tuple(f.name for f in dataclasses.fields(RuntimeSummary))
_NONE = type(None)
# The value types JSON gives back for each field type of the results' dataclasses.
_TYPES = {"str": {str}, "str | None": {str, _NONE}, "int": {int}, "int | None": {int, _NONE},
          "float": {float, int}, "float | None": {float, int, _NONE}, "bool": {bool},
          "list[str]": {list}, "dict[str, Any] | None": {dict, _NONE}, "Counter": {list}}


def _types_of(cls: type, skip: tuple[str, ...] = ()) -> list[frozenset[type] | None]:
    return [None if f.name in skip else frozenset(_TYPES[str(f.type)]) for f in dataclasses.fields(cls)]


_PAIR_TYPES = _types_of(CachePair, skip=("rules",))
_FINDING_TYPES = _types_of(Finding)
_SUMMARY_TYPES = _types_of(RuntimeSummary)
_RULES_AT = _PAIR_FIELDS.index("rules")


class KeptFileError(ValueError):
    """A kept file that cannot be used (corrupt, truncated, foreign or from another version)."""


def rules_hash(rules: RuleSet) -> str:
    """A hash of the merged rules table: equal tables, equal hash, wherever they were read from."""
    doc = {"default": rules.default_family, "families": rules.families, "cacheKeys": repr(rules.cache_keys)}
    text = json.dumps(doc, sort_keys=True, default=repr, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Mark:
    """What the analysis saw of the store: the database file's state (None for a server), the
    session's trace row count, and (event id, write-order key) of a few requests analysed."""

    file: str | None
    events: int
    anchors: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "events": self.events, "anchors": [list(a) for a in self.anchors]}

    @staticmethod
    def from_json(doc: Any) -> Mark:
        if not isinstance(doc, dict) or not isinstance(doc.get("events"), int):
            raise KeptFileError("its store mark is malformed")
        file, anchors = doc.get("file"), doc.get("anchors")
        if not (file is None or isinstance(file, str)) or not isinstance(anchors, list) or not all(
                isinstance(a, list) and len(a) == 2 and isinstance(a[0], str) and isinstance(a[1], int)
                for a in anchors):
            raise KeptFileError("its store mark is malformed")
        return Mark(file, doc["events"], tuple((a[0], a[1]) for a in anchors))


@dataclass(frozen=True, slots=True)
class Kept:
    """A kept analysis read back: ``current`` when the store holds the same rows as when it was
    made (the results are the answer), False when the session has grown since (rows appended,
    the analysed ones in place: shown, then analysed again); ``turns``: the session's turns
    then, (number, turn id) in order (the columns of the app's table)."""

    analysis: CacheAnalysis
    current: bool
    turns: list[tuple[int, str]]
    # the analyser's resume state (inspector.cache.resume_state, JSON, checked only when used)
    resume: Any = None


class Resumed(NamedTuple):
    """A kept analysis brought up to date (:meth:`KeptAnalyses.resumed`): the whole ``analysis``,
    the ``analyser`` that can resume it again, and the pairs that are new or changed (every pair
    when the resume had to analyse the session again)."""

    analysis: CacheAnalysis
    analyser: Any  # inspector.cache.analysis.SessionCacheAnalyser
    changed: list[CachePair]


class KeptAnalyses:
    """The kept analyses of one store in one cache folder (default: the user's)."""

    def __init__(self, store: Any, cache_dir: str | os.PathLike[str] | None = None, *,
                 warn: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.root = Path(cache_dir if cache_dir is not None else default_cache_dir()) / FOLDER
        self.key, self.description = store_identity(store)
        self.directory = self.root / self.key
        self._warn = warn
        # Writing beside the user's database is refused (the cache folder can be anywhere).
        self.usable = not beside_database(store, self.directory) and not beside_database(store, self.root)

    def path_for(self, session_id: str) -> Path:
        return self.directory / (hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:32] + _SUFFIX)

    # ----------------------------------------------------------------- the store's state

    def mark(self, session_id: str) -> Mark:
        """The store's state for ``session_id`` now. Take it before the analysis reads: a row
        written meanwhile then only makes the next check fail (:meth:`save` anchors it on a few of
        the requests analysed)."""
        file = file_state(os.path.realpath(self.store.path)) if self.store.path is not None else None
        events = self.store.session_event_counts([session_id]).get(session_id, 0)
        return Mark(file, events)

    def _anchored(self, mark: Mark, analysis: CacheAnalysis) -> Mark:
        pairs = analysis.pairs
        if not pairs:
            return mark
        picks = dict.fromkeys(pairs[i].event_id for i in (0, len(pairs) // 2, len(pairs) - 1))
        anchors = []
        for event_id in list(picks)[:_ANCHORS]:
            key = self.store.event_key(event_id)
            if type(key) is int:
                anchors.append((event_id, key))
        return Mark(mark.file, mark.events, tuple(anchors))

    def _compare(self, kept: Mark, session_id: str) -> str:
        """``current``, ``grown`` or why the kept results no longer hold."""
        if kept.file is not None and self.store.path is not None and file_state(
                os.path.realpath(self.store.path)) == kept.file:
            return "current"
        for event_id, key in kept.anchors:
            if self.store.event_key(event_id) != key:
                return "the store was rewritten since"
        events = self.store.session_event_counts([session_id]).get(session_id, 0)
        if events == kept.events:
            return "current"
        return "grown" if events > kept.events else "rows were removed since"

    # ----------------------------------------------------------------- reading

    def load(self, session_id: str, rules: RuleSet, *, grown: bool = False) -> Kept | None:
        """The kept analysis of ``session_id`` when it holds for this store, rules table and
        program; with ``grown``, also when the session has grown since (``Kept.current`` False).
        None when there is none or it does not hold; a file that is not a valid kept analysis is
        ignored with a warning (once per file and process)."""
        if not self.usable or not isinstance(session_id, str):
            return None
        path = self.path_for(session_id)
        try:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size > MAX_FILE_BYTES + _MAX_HEADER_BYTES:
                    raise KeptFileError(f"it is larger than {MAX_FILE_BYTES >> 20} MB")
                data = handle.read(MAX_FILE_BYTES + _MAX_HEADER_BYTES + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._ignore(path, f"it cannot be read: {exc.strerror or exc}")
            return None
        except KeptFileError as exc:
            self._ignore(path, str(exc))
            return None
        try:
            header, body = _split(data)
            mark = self._check_header(header, session_id, rules)
            if mark is None:
                return None
            state = self._compare(mark, session_id)
            if state != "current" and not (grown and state == "grown"):
                return None
            with fewer_collections():  # tens of thousands of objects, none of them garbage
                analysis, turns, resume = _decode_body(body, header, session_id, rules)
        except KeptFileError as exc:
            self._ignore(path, str(exc))
            return None
        touch(path)
        return Kept(analysis, state == "current", turns, resume)

    def _check_header(self, header: dict[str, Any], session_id: str, rules: RuleSet) -> Mark | None:
        """The header's mark when the file is this store's and session's; None when it is from
        another rules table or program version (valid, but not for this run)."""
        if header.get("format") != FORMAT:
            raise KeptFileError(f"its format is {header.get('format')!r}, not {FORMAT}")
        if header.get("store") != self.key or header.get("session") != session_id:
            raise KeptFileError("it belongs to another store or session")
        if header.get("pairFields") != list(_PAIR_FIELDS) or header.get("findingFields") != list(
                _FINDING_FIELDS) or header.get("summaryFields") != list(_SUMMARY_FIELDS):
            raise KeptFileError("its fields are not this version's")
        if header.get("program") != __version__ or header.get("rules") != rules_hash(rules):
            return None
        return Mark.from_json(header.get("mark"))

    def _ignore(self, path: Path, why: str) -> None:
        with _WARNED_LOCK:
            if path in _WARNED:
                return
            _WARNED.add(path)
        if self._warn is not None:
            self._warn(f"ignored the kept cache analysis {path} ({why}); the session is analysed again")

    # ----------------------------------------------------------------- writing

    def save(self, analysis: CacheAnalysis, rules: RuleSet, mark: Mark, turns: list[tuple[int, str]],
             resume: dict[str, Any] | None = None) -> Path | None:
        """Keep ``analysis`` (made from the store as ``mark`` found it, taken before it read) with
        the session's ``turns`` ((number, turn id) in order) and the analyser's ``resume`` state
        (:meth:`inspector.cache.analysis.SessionCacheAnalyser.resume_state`); None when it is not
        kept (too big, beside the database, made with a failed worker, or the folder cannot be
        written: the next run analyses again)."""
        from inspector.files import SaveError, write_atomic_bytes

        if not self.usable or not isinstance(analysis.session_id, str) or any(
                w.startswith(WORKER_FAILED) for w in analysis.warnings):
            return None
        try:
            # A store of odd shape may hand over values JSON cannot hold (bytes ids): not kept.
            body = zlib.compress(_encode_body(analysis, turns, resume).encode("ascii"), 1)
        except (TypeError, ValueError):
            return self.save(analysis, rules, mark, turns) if resume is not None else None
        if len(body) > MAX_FILE_BYTES and resume is not None:  # the results alone may fit
            return self.save(analysis, rules, mark, turns)
        mark = self._anchored(mark, analysis)
        if len(body) > MAX_FILE_BYTES:
            return None
        header = {"format": FORMAT, "program": __version__, "store": self.key, "description": self.description,
                  "session": analysis.session_id, "rules": rules_hash(rules), "mark": mark.to_json(),
                  "pairFields": list(_PAIR_FIELDS), "findingFields": list(_FINDING_FIELDS),
                  "summaryFields": list(_SUMMARY_FIELDS), "bodyBytes": len(body), "crc32": zlib.crc32(body)}
        data = _MAGIC + json.dumps(header, ensure_ascii=True).encode("ascii") + b"\n" + body
        path = self.path_for(analysis.session_id)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_atomic_bytes(path, data)
        except (SaveError, OSError):
            return None
        with _WARNED_LOCK:
            _WARNED.discard(path)
        prune(self.root, FOLDER_LIMIT_BYTES, path, _SUFFIX)
        return path

    # ----------------------------------------------------------------- resuming

    def resumed(self, kept: Kept, rules: RuleSet, warn: Callable[[str], None] | None = None) -> Resumed | None:
        """A kept analysis of a session that has grown since brought up to date from its resume
        state, reading only the rows written since (:class:`Resumed`; its analysis equals a fresh
        analysis of the store); None when it has no resume state or the state
        does not hold (a warning says why; analyse afresh). Its warnings are said through
        ``warn``: the kept ones, then those of the rows read now."""
        if kept.resume is None:
            return None
        from inspector.cache.analysis import SessionCacheAnalyser, run_analysis
        from inspector.cache.resume import merged_pairs
        from inspector.cache.resume_state import StateError

        earlier = kept.analysis
        try:
            with fewer_collections():
                analyser = SessionCacheAnalyser.restored(self.store, earlier, kept.resume, rules=rules, warn=warn)
        except StateError as exc:
            self._ignore(self.path_for(earlier.session_id), f"its resume state does not hold: {exc}")
            return None
        for message in earlier.warnings if warn is not None else ():
            warn(message)
        new = run_analysis(analyser, analyser.resume())
        pairs = merged_pairs(earlier.pairs, new.pairs, analyser.restarted)
        return Resumed(CacheAnalysis(earlier.session_id, pairs, new.findings, new.summaries, new.warnings), analyser,
                       new.pairs)

    # ----------------------------------------------------------------- clearing

    def clear(self, session_id: str | None = None) -> tuple[int, int]:
        """Remove the kept analyses of this store (of one session with ``session_id``): (files,
        bytes) removed."""
        paths = [self.path_for(session_id)] if session_id is not None else (
            sorted(self.directory.iterdir()) if self.directory.is_dir() else [])
        files = size = 0
        for path in paths:
            try:
                length = path.stat().st_size
                path.unlink()
            except FileNotFoundError:
                continue
            files += 1
            size += length
        if session_id is None and self.directory.is_dir():
            shutil.rmtree(self.directory, ignore_errors=True)
        return files, size


_WARNED: set[Path] = set()
_WARNED_LOCK = threading.Lock()


def _split(data: bytes) -> tuple[dict[str, Any], bytes]:
    if not data.startswith(_MAGIC):
        raise KeptFileError("it is not a kept cache analysis")
    end = data.find(b"\n", len(_MAGIC), len(_MAGIC) + _MAX_HEADER_BYTES)
    if end < 0:
        raise KeptFileError("its header is truncated")
    try:
        header = json.loads(data[len(_MAGIC):end])
    except (ValueError, UnicodeDecodeError):
        raise KeptFileError("its header is not JSON") from None
    if not isinstance(header, dict):
        raise KeptFileError("its header is not a JSON object")
    body = data[end + 1:]
    if header.get("bodyBytes") != len(body):
        raise KeptFileError("it is truncated")
    if header.get("crc32") != zlib.crc32(body):
        raise KeptFileError("its checksum does not match (corrupt)")
    return header, body


def _column_ok(column: Any, types: frozenset[type] | None, rows: int) -> bool:
    if not isinstance(column, list) or len(column) != rows:
        return False
    # The exact types, as JSON gives them (a bool is no int here).
    return types is None or set(map(type, column)) <= types


def _columns(doc: Any, fields: tuple[str, ...], types: list[frozenset[type] | None], what: str) -> list[list]:
    if not isinstance(doc, list) or len(doc) != len(fields) or not doc or not isinstance(doc[0], list):
        raise KeptFileError(f"its {what} are malformed")
    rows = len(doc[0])
    if not all(_column_ok(column, kinds, rows) for column, kinds in zip(doc, types, strict=True)):
        raise KeptFileError(f"its {what} are malformed")
    return doc


def _encode_body(analysis: CacheAnalysis, turns: list[tuple[int, str]], resume: dict[str, Any] | None) -> str:
    pairs = [[getattr(p, name) for p in analysis.pairs] for name in _PAIR_FIELDS]
    pairs[_RULES_AT] = [None] * len(analysis.pairs)  # resolved again from the rules table
    findings = [[getattr(f, name) for f in analysis.findings] for name in _FINDING_FIELDS]
    summaries = [[getattr(s, name) for s in analysis.summaries] for name in _SUMMARY_FIELDS]
    at = _SUMMARY_FIELDS.index("reasons")
    summaries[at] = [list(map(list, counter.items())) for counter in summaries[at]]
    doc = {"pairs": pairs, "findings": findings, "summaries": summaries, "warnings": list(analysis.warnings),
           "turns": [[number, turn_id] for number, turn_id in turns]}
    if resume is not None:
        doc["resume"] = resume
    return json.dumps(doc, ensure_ascii=True, separators=(",", ":"))


def _decode_body(body: bytes, header: dict[str, Any], session_id: str,
                 rules: RuleSet) -> tuple[CacheAnalysis, list[tuple[int, str]], Any]:
    inflate = zlib.decompressobj()
    try:
        raw = inflate.decompress(body, _MAX_BODY_BYTES)
    except zlib.error:
        raise KeptFileError("its body does not decompress (corrupt)") from None
    if inflate.unconsumed_tail or not inflate.eof:
        raise KeptFileError("its body is too large or truncated")
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise KeptFileError("its body is not JSON") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("warnings"), list) or not all(
            isinstance(w, str) for w in doc["warnings"]):
        raise KeptFileError("its body is malformed")
    turns = doc.get("turns")
    if not isinstance(turns, list) or not all(
            type(t) is list and len(t) == 2 and type(t[0]) is int and type(t[1]) is str for t in turns):
        raise KeptFileError("its turns are malformed")
    pairs = _columns(doc.get("pairs"), _PAIR_FIELDS, _PAIR_TYPES, "pairs")
    findings = _columns(doc.get("findings"), _FINDING_FIELDS, _FINDING_TYPES, "findings")
    summaries = _columns(doc.get("summaries"), _SUMMARY_FIELDS, _SUMMARY_TYPES, "summaries")
    try:
        resolve = rules.resolve
        at = _PAIR_FIELDS.index
        pairs[_RULES_AT] = [resolve(p, q, m, w) for p, q, m, w in zip(
            pairs[at("provider")], pairs[at("protocol")], pairs[at("model")], pairs[at("started_at")], strict=True)]
        reasons = _SUMMARY_FIELDS.index("reasons")
        summaries[reasons] = [Counter({str(k): int(n) for k, n in items}) for items in summaries[reasons]]
        out = CacheAnalysis(session_id, list(map(CachePair, *pairs)), list(map(Finding, *findings)),
                            list(map(RuntimeSummary, *summaries)), list(doc["warnings"]))
    except (TypeError, ValueError, KeyError):
        raise KeptFileError("its values are malformed") from None
    if not all(set(map(type, f.turn_ids)) <= {str} for f in out.findings):
        raise KeptFileError("its findings are malformed")
    if any(p.session_id != session_id for p in out.pairs):
        raise KeptFileError("it holds another session's pairs")
    return out, [(number, turn_id) for number, turn_id in turns], doc.get("resume")


def analyses_of(store: Any, session_ids: list[str], rules: RuleSet, keep: KeptAnalyses | None,
                warn: Callable[[str], None] | None = None,
                before_analysing: Callable[[list[str]], None] | None = None) -> list[CacheAnalysis]:
    """The analyses of ``session_ids``, in order: each the kept one when it holds (its warnings
    said again through ``warn``, as the analysis said them); the kept one brought up to date when
    the session has grown since (:meth:`KeptAnalyses.resumed`); else a fresh one. Each not kept
    as it is, is kept afterwards. ``keep`` None: analysed, nothing read or written
    (``--no-cache``). ``before_analysing`` is called with the sessions to be analysed whole (not
    kept, or kept without a resume state), before the first of them is analysed (when there is
    one)."""
    from inspector.cache.analysis import SessionCacheAnalyser, run_analysis

    kept: dict[str, Kept] = {}
    if keep is not None:
        for sid in session_ids:
            found = keep.load(sid, rules, grown=True)
            if found is not None:
                kept[sid] = found
    # A session kept before it grew resumes from the rows written since, in this process.
    missing = [sid for sid in session_ids if sid not in kept or (not kept[sid].current and kept[sid].resume is None)]
    if missing and before_analysing is not None:
        before_analysing(missing)
    out = []
    for sid in session_ids:
        found = kept.get(sid)
        if found is not None and found.current:
            for message in found.analysis.warnings if warn is not None else ():
                warn(message)
            out.append(found.analysis)
            continue
        mark = keep.mark(sid) if keep is not None else None  # before anything is read
        resumed = keep.resumed(found, rules, warn) if keep is not None and found is not None else None
        if resumed is not None:
            analysis, analyser = resumed.analysis, resumed.analyser
        else:
            analyser = SessionCacheAnalyser(store, sid, rules=rules, warn=warn)
            analysis = run_analysis(analyser, analyser.pairs())
        if keep is not None and mark is not None:
            keep.save(analysis, rules, mark, [(t.number, t.turn_id) for t in store.turns(sid)],
                      analyser.resume_state())
        out.append(analysis)
    return out
