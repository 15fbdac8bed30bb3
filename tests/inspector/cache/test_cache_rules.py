"""The provider rules table: loading, resolution, the user override, and validation errors."""

from __future__ import annotations

import fnmatch
import tomllib

import pytest

from inspector.cache.rules import (
    DEFAULT_RULES_PATH,
    ENV_VAR,
    GRANULARITIES,
    MODES,
    RulesError,
    default_rules,
    load_rules,
    normalise_model,
)


def write(tmp_path, text, name="rules.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the shipped table ---------------------------------------------------------------------------


def test_shipped_table_loads_and_every_family_resolves():
    rules = default_rules()
    assert set(rules.families) == {"openai", "anthropic", "gemini", "deepseek"}
    for name, family in rules.families.items():
        resolved = rules.resolve(family["providers"][0] if family["providers"] else None, None, "x")
        assert resolved.family == name
        assert resolved.mode in MODES and resolved.granularity in GRANULARITIES


def test_every_model_entry_resolves_to_its_own_pattern():
    rules = default_rules()
    for name, family in rules.families.items():
        provider = family["providers"][0]
        for entry in family.get("models", ()):
            pattern = entry["match"][0]
            model = pattern.replace("*", "-test")
            resolved = rules.resolve(provider, None, model)
            assert resolved.family == name
            # An earlier, more specific entry may own the name; then it must be one of its patterns.
            owner = next(e for e in family["models"] if any(fnmatch.fnmatchcase(model, p) for p in e["match"]))
            assert resolved.model_pattern in owner["match"]


@pytest.mark.parametrize(("provider", "protocol", "model", "family", "minimum"), [
    ("openai", "openai-responses-v1", "gpt-5-mini", "openai", 1024),
    (None, "openai-chat-v1", "gpt-4o", "openai", 1024),
    ("deepseek", "openai-chat-v1", "deepseek-chat", "deepseek", 64),
    ("anthropic", "anthropic-messages-v1", "claude-sonnet-4-5", "anthropic", 1024),
    ("anthropic", None, "claude-haiku-4-5", "anthropic", 4096),
    ("anthropic", None, "claude-sonnet-4-6", "anthropic", 1024),
    ("anthropic", None, "claude-opus-4-7", "anthropic", 2048),
    ("anthropic", None, "claude-mythos-5", "anthropic", 512),
    ("anthropic", None, "claude-opus-4-5-20251101", "anthropic", 4096),
    ("anthropic", None, "claude-opus-5", "anthropic", 512),
    (None, "anthropic-messages-v1", "anthropic/claude-3-5-haiku-latest", "anthropic", 2048),
    ("google", "google-generative-ai-v1", "gemini-2.5-flash", "gemini", 2048),
    ("google", None, "gemini-3-pro-preview", "gemini", 4096),
    ("somebody", "unknown-protocol", "some-model", "openai", 1024),
])
def test_resolution_by_provider_then_protocol_then_default(provider, protocol, model, family, minimum):
    rules = default_rules().resolve(provider, protocol, model)
    assert rules.family == family
    assert rules.min_cacheable_tokens == minimum


def test_spec_numbers_are_in_the_table():
    """provider-caching.md §3: the numbers the analysis relies on."""
    rules = default_rules()
    openai = rules.resolve("openai", None, "gpt-5")
    assert (openai.min_cacheable_tokens, openai.granularity, openai.step_tokens) == (1024, "step", 128)
    assert openai.write_multiplier == 1.0 and openai.read_multiplier == 0.1
    assert rules.resolve("openai", None, "gpt-5.6").write_multiplier == 1.25
    assert (openai.routing_prefix_tokens, openai.overflow_requests_per_minute) == (256, 15)
    claude = rules.resolve("anthropic", None, "claude-sonnet-4-5")
    assert claude.routing_prefix_tokens is None and claude.overflow_requests_per_minute is None
    assert (claude.max_breakpoints, claude.lookback_blocks) == (4, 20)
    assert claude.ttl_for(None) == 300 and claude.ttl_for("1h") == 3600
    assert claude.write_multiplier_for(None) == 1.25 and claude.write_multiplier_for("1h") == 2.0
    assert claude.read_multiplier == 0.1
    deepseek = rules.resolve("deepseek", None, "deepseek-chat")
    assert (deepseek.granularity, deepseek.unit_tokens, deepseek.min_cacheable_tokens) == ("units", 64, 64)
    assert rules.resolve("google", None, "gemini-2.5-pro").granularity == "exact"


def test_tokenizer_follows_the_model():
    rules = default_rules()
    assert rules.resolve("openai", None, "gpt-4-turbo").tokenizer == "cl100k_base"
    assert rules.resolve("openai", None, "gpt-4o").tokenizer == "o200k_base"


def test_model_names_are_normalised():
    assert normalise_model("Anthropic/Claude-Sonnet-4-5") == "claude-sonnet-4-5"
    assert normalise_model(None) == ""


def test_shipped_file_is_plain_toml_with_a_source_for_every_family():
    doc = tomllib.loads(DEFAULT_RULES_PATH.read_text(encoding="utf-8"))
    for name, family in doc["families"].items():
        assert family.get("sources"), f"{name} has no sources"


# --- the user override ---------------------------------------------------------------------------


def test_user_file_overrides_family_keys_and_its_models_come_first(tmp_path):
    path = write(tmp_path, """
[families.deepseek]
granularity = "step"
step_tokens = 128
min_cacheable_tokens = 1024

[[families.anthropic.models]]
match = ["claude-sonnet-4-6*"]
min_cacheable_tokens = 1024

[families.anthropic.ttl_options]
"2h" = 7200
""")
    rules = load_rules(path, env={})
    deepseek = rules.resolve("deepseek", None, "deepseek-chat")
    assert (deepseek.granularity, deepseek.step_tokens, deepseek.min_cacheable_tokens) == ("step", 128, 1024)
    assert deepseek.ttl_seconds == 3600  # untouched keys stay
    sonnet = rules.resolve("anthropic", None, "claude-sonnet-4-6")
    assert sonnet.min_cacheable_tokens == 1024
    # A table-valued key merges: the shipped options remain beside the new one.
    assert sonnet.ttl_for("2h") == 7200 and sonnet.ttl_for("1h") == 3600
    assert rules.paths == (DEFAULT_RULES_PATH, path)


def test_user_file_can_add_a_family_and_change_the_default(tmp_path):
    path = write(tmp_path, """
default_family = "local"
[families.local]
providers = ["ollama"]
mode = "automatic"
min_cacheable_tokens = 0
granularity = "exact"
ttl_seconds = 60
read_multiplier = 0
write_multiplier = 0
tokenizer = "cl100k_base"
image_tokens = 0
""")
    rules = load_rules(path, env={})
    assert rules.resolve("ollama", None, "llama").family == "local"
    assert rules.resolve(None, None, "anything").family == "local"


def test_environment_variable_names_the_user_file(tmp_path):
    path = write(tmp_path, "[families.openai]\nttl_seconds = 300\n")
    rules = load_rules(env={ENV_VAR: str(path)})
    assert rules.resolve("openai", None, "gpt-4o").ttl_seconds == 300


def test_rules_option_wins_over_the_environment(tmp_path):
    env_file = write(tmp_path, "[families.openai]\nttl_seconds = 300\n", "env.toml")
    cli_file = write(tmp_path, "[families.openai]\nttl_seconds = 900\n", "cli.toml")
    rules = load_rules(cli_file, env={ENV_VAR: str(env_file)})
    assert rules.resolve("openai", None, "gpt-4o").ttl_seconds == 900


def test_an_empty_environment_variable_is_unset():
    rules = load_rules(env={ENV_VAR: ""})
    assert rules.paths == (DEFAULT_RULES_PATH,)


# --- validation ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ("[families.openai]\nstep_tokens = -3\n", "families.openai.step_tokens: expected a whole number, 1 or more, got -3"),
    ("[families.openai]\nstep_token = 64\n", "families.openai.step_token: unknown key; did you mean 'step_tokens'?"),
    ("[families.openai]\ngranularity = \"blocks\"\n", "families.openai.granularity: expected one of step, units"),
    ("[families.openai]\ntokenizer = \"p50k_base\"\n", "families.openai.tokenizer: expected one of o200k_base"),
    ("[families.openai]\nread_multiplier = \"cheap\"\n", "families.openai.read_multiplier: expected a number"),
    ("[families.openai]\nttl_seconds = 0\n", "families.openai.ttl_seconds: expected a number above 0"),
    ("[families.openai]\nmin_cacheable_tokens = true\n", "families.openai.min_cacheable_tokens: expected a whole number"),
    ("[[families.openai.models]]\nmin_cacheable_tokens = 1\n", "families.openai.models[0].match: missing"),
    ("[[families.openai.models]]\nmatch = []\n", "families.openai.models[0].match: expected a non-empty list"),
    ("[[families.openai.models]]\nmatch = [\"x*\"]\nproviders = [\"x\"]\n",
     "families.openai.models[0].providers: unknown key"),
    ("[families.openai]\nstep_tokens = 128\ngranularity = \"breakpoints\"\n",
     "families.openai.granularity: \"breakpoints\" needs mode \"explicit\""),
    ("[[families.openai.models]]\nmatch = [\"x*\"]\nmode = \"explicit\"\n",
     "families.openai.models[0].max_breakpoints: missing"),
    ("default_family = \"nowhere\"\n", "default_family: 'nowhere' is not one of the families"),
    ("schema = 2\n", "schema: this version reads schema 1, the file says 2"),
    ("colour = \"blue\"\n", "colour: unknown key"),
    ("[families.openai]\noverflow_requests_per_minute = 0\n",
     "families.openai.overflow_requests_per_minute: expected a number above 0"),
    ("[families.google]\noverflow_requests_per_minute = 10\n",
     "families.google.routing_prefix_tokens: missing (needed by overflow_requests_per_minute)"),
    ("[families.new]\nproviders = [\"x\"]\n", "families.new.mode: missing"),
])
def test_invalid_user_files_name_the_file_and_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(RulesError) as info:
        load_rules(path, env={})
    assert str(path) in str(info.value)
    assert message in str(info.value)


def test_every_error_is_listed_at_once(tmp_path):
    path = write(tmp_path, "[families.openai]\nstep_tokens = 0\nttl_seconds = -1\nfoo = 1\n")
    with pytest.raises(RulesError) as info:
        load_rules(path, env={})
    text = str(info.value)
    assert "step_tokens" in text and "ttl_seconds" in text and "foo" in text


def test_not_toml_is_a_clear_error(tmp_path):
    path = write(tmp_path, "[families.openai\n")
    with pytest.raises(RulesError, match="not valid TOML"):
        load_rules(path, env={})


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(RulesError, match="no such rules file"):
        load_rules(tmp_path / "absent.toml", env={})


def test_not_utf8_is_a_clear_error(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"# caf\xe9\n")
    with pytest.raises(RulesError, match="not UTF-8"):
        load_rules(path, env={})


def test_a_broken_shipped_table_is_reported_too(tmp_path):
    base = write(tmp_path, "default_family = \"x\"\n[families.x]\nmode = \"explicit\"\n", "base.toml")
    with pytest.raises(RulesError) as info:
        load_rules(env={}, base_path=base)
    assert "families.x.min_cacheable_tokens: missing" in str(info.value)
    assert "families.x.max_breakpoints: missing" in str(info.value)


# --- evidence and dated prices -------------------------------------------------------------------


def test_every_contested_value_says_its_alternatives_and_why():
    rules = default_rules()
    contested = 0
    for name, family in rules.families.items():
        for table in [family, *family.get("models", ())]:
            for key, evidence in table.get("evidence", {}).items():
                assert key in table or key in family, f"{name}: evidence for {key}, which it does not set"
                assert evidence.get("source") and evidence.get("checked"), f"{name}.{key}"
                if evidence.get("contested"):
                    contested += 1
                    assert evidence.get("alternatives") and evidence.get("why"), f"{name}.{key}"
    assert contested >= 6


def test_the_disputed_values_are_the_providers_own():
    rules = default_rules()
    sonnet_46 = rules.resolve("anthropic", None, "claude-sonnet-4-6")
    assert sonnet_46.min_cacheable_tokens == 1024
    assert sonnet_46.evidence["min_cacheable_tokens"]["alternatives"] == [2048]
    assert rules.resolve("anthropic", None, "claude-opus-4-7").min_cacheable_tokens == 2048
    assert rules.resolve("anthropic", None, "claude-mythos-5").min_cacheable_tokens == 512
    assert rules.resolve("anthropic", None, "claude-opus-5-5").read_multiplier == 0.05
    assert rules.resolve("anthropic", None, "claude-mythos-5-1").read_multiplier == 0.025
    assert rules.resolve("anthropic", None, "claude-opus-5").read_multiplier == 0.1
    assert rules.resolve("anthropic", None, "claude-sonnet-5").input_price_per_mtok == 2.00
    assert rules.resolve("openai", None, "gpt-5.6").ttl_seconds == 1800
    assert rules.resolve("openai", None, "gpt-5-mini").ttl_seconds == 600
    assert rules.resolve("anthropic", None, "claude-sonnet-4-6").evidence["ttl_seconds"]["checked"] == "2026-12-01"


_DATED = """
[[families.anthropic.models]]
match = ["claude-dated-*"]
input_price_per_mtok = 3.00
prices = [
  { until = 2026-08-31, input_price_per_mtok = 2.00 },
  { from = "2026-09-01", until = 2026-12-31, input_price_per_mtok = 4.00, read_multiplier = 0.05 },
]
"""


@pytest.mark.parametrize(("when", "price", "read"), [
    (None, 3.00, 0.1),
    ("2026-08-31T23:59:59Z", 2.00, 0.1),
    ("2026-09-01T00:00:00.000Z", 4.00, 0.05),
    ("2026-12-31", 4.00, 0.05),
    ("2027-01-01T00:00:00Z", 3.00, 0.1),
    ("not a date", 3.00, 0.1),
])
def test_a_request_is_priced_by_its_own_date(tmp_path, when, price, read):
    rules = load_rules(write(tmp_path, _DATED), env={})
    resolved = rules.resolve("anthropic", None, "claude-dated-1", when=when)
    assert (resolved.input_price_per_mtok, resolved.read_multiplier) == (price, read)
    assert resolved.min_cacheable_tokens == rules.resolve("anthropic", None, "claude-dated-1").min_cacheable_tokens
    assert rules.resolve("anthropic", None, "claude-dated-1", when=when) is resolved  # memoised


def test_a_model_price_replaces_the_familys_dated_prices(tmp_path):
    path = write(tmp_path, """
[families.anthropic]
prices = [{ until = 2026-01-01, input_price_per_mtok = 9.0 }]

[[families.anthropic.models]]
match = ["claude-own-*"]
input_price_per_mtok = 1.0
""")
    rules = load_rules(path, env={})
    assert rules.resolve("anthropic", None, "claude-own-1", when="2025-06-01").input_price_per_mtok == 1.0
    assert rules.resolve("anthropic", None, "claude-other", when="2025-06-01").input_price_per_mtok == 9.0


def test_an_override_file_written_before_evidence_and_prices_loads_as_before(tmp_path):
    """A user's file of the old shape: plain numbers, comments for sources."""
    old = write(tmp_path, """
schema = 1

[families.anthropic]
# we measured 2048 ourselves
ttl_seconds = 360
read_multiplier = 0.1

[[families.anthropic.models]]
match = ["claude-sonnet-4-6*"]
min_cacheable_tokens = 2048
input_price_per_mtok = 3.0
""")
    rules = load_rules(old, env={})
    sonnet = rules.resolve("anthropic", None, "claude-sonnet-4-6", when="2026-11-01T00:00:00Z")
    assert (sonnet.min_cacheable_tokens, sonnet.ttl_seconds, sonnet.input_price_per_mtok) == (2048, 360, 3.0)
    assert sonnet.model_pattern == "claude-sonnet-4-6*"
    # the family's evidence still travels with the family's values
    assert "read_multiplier" in sonnet.evidence
    other = rules.resolve("anthropic", None, "claude-opus-4-7")
    assert other.min_cacheable_tokens == 2048 and other.ttl_seconds == 360


def test_a_user_file_may_add_evidence_of_its_own(tmp_path):
    path = write(tmp_path, """
[families.anthropic.evidence.ttl_seconds]
source = "our own measurements"
checked = 2026-11-30
""")
    evidence = load_rules(path, env={}).resolve("anthropic", None, "claude-sonnet-4-5").evidence
    assert evidence["ttl_seconds"] == {"source": "our own measurements", "checked": "2026-11-30"}
    assert "read_multiplier" in evidence  # the shipped evidence of the other keys stays


@pytest.mark.parametrize(("text", "message"), [
    ('[families.anthropic.evidence.ttl_seconds]\nsource = 3\n', "families.anthropic.evidence"),
    ('[families.anthropic.evidence.ttl_seconds]\nchecked = "last week"\n', "families.anthropic.evidence"),
    ('[families.anthropic.evidence.ttl_secs]\nsource = "x"\n', "families.anthropic.evidence"),
    ('[families.anthropic.evidence.ttl_seconds]\ncontested = "yes"\n', "families.anthropic.evidence"),
    ('[families.anthropic]\nprices = [{ from = 2026-02-01, until = 2026-01-01, input_price_per_mtok = 1.0 }]\n',
     "families.anthropic.prices"),
    ('[families.anthropic]\nprices = [{ from = 2026-02-01 }]\n', "families.anthropic.prices"),
    ('[families.anthropic]\nprices = [{ input_price_per_mtok = -1 }]\n', "families.anthropic.prices"),
    ('[families.anthropic]\nprices = [{ output_price = 1.0 }]\n', "families.anthropic.prices"),
])
def test_bad_evidence_or_prices_name_the_key(tmp_path, text, message):
    with pytest.raises(RulesError) as err:
        load_rules(write(tmp_path, text), env={})
    assert message in str(err.value)


def test_the_uncertainty_bands_are_data():
    rules = default_rules()
    claude = rules.resolve("anthropic", None, "claude-sonnet-4-5")
    assert (claude.proxy_token_error, claude.expiry_grace_seconds) == (0.15, 120)
    assert rules.resolve("deepseek", None, "deepseek-chat").expiry_grace_seconds is None
    assert all(rules.resolve(f["providers"][0], None, "x").proxy_token_error == 0.15 for f in rules.families.values())
