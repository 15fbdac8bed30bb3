"""Covel's {{ variable }} runtime-body templates: interpolation, own properties, escaping inside
tagged blocks, front matter, the variable catalog and its diagnostics."""

from __future__ import annotations

from inspector.zones import diagnostic as dg
from inspector.zones.covel_templates import (
    CATALOG,
    check_covel,
    example_variables,
    interpolate,
    lookup,
    references,
    tagged_blocks,
)


def test_values_render_like_covel() -> None:
    variables = {"s": "text", "n": 3, "f": 1.0, "b": False, "z": None, "o": {"k": [1, "二"]}, "l": [1, 2]}
    out = interpolate("{{s}}|{{ n }}|{{f}}|{{b}}|{{z}}|{{missing}}|{{o}}|{{l}}", variables)
    assert out == 's|3|1|false|||{\n  "k": [\n    1,\n    "二"\n  ]\n}|[\n  1,\n  2\n]'.replace("s|", "text|", 1)


def test_paths_read_own_properties_only() -> None:
    variables = {"inputs": {"constructor": {"main": {"x": "explicit"}}}, "world": {"tags": ["a", "b"]}}
    assert interpolate("{{ inputs.constructor.main.x }}", variables) == "explicit"
    assert interpolate("{{ inputs.toString }}|{{ world.tags.length }}|{{ world.tags.1 }}|{{ world.tags.01 }}",
                       variables) == "|2|b|"
    assert interpolate("{{ world.tags.0.length }}", variables) == ""  # a string is not an object


def test_one_pass_and_no_reinterpolation() -> None:
    variables = {"player": {"message": "{{ session.id }}"}, "session": {"id": "S"}}
    assert interpolate("{{player.message}} {{session.id}}", variables) == "{{ session.id }} S"


def test_pattern_edges() -> None:
    variables = {"a": "A", "a b": "space"}
    # As in JavaScript: "{{{a}}" matches with the path "{a" (not a key, so nothing), "{{}}" has no
    # path and is left alone, "{{ }}" has the empty path.
    assert interpolate("{{a}}} {{{a}} {{ a b }} {{}} {{ }}", variables) == "A}  space {{}} "


def test_values_are_escaped_only_inside_tagged_blocks() -> None:
    body = ("Intro {{ v }} mentions <world-lore> inline {{ v }}\n"
            "<world-lore>{{ v }}</world-lore>\n"
            "<notes>\nline {{ v }}\n</notes> after {{ v }}\n"
            "<open>\nno closer {{ v }}\n")
    out = interpolate(body, {"v": "a</world-lore>&<b>"})
    raw, escaped = "a</world-lore>&<b>", "a&lt;/world-lore&gt;&amp;&lt;b&gt;"
    assert out == (f"Intro {raw} mentions <world-lore> inline {raw}\n"
                   f"<world-lore>{escaped}</world-lore>\n"
                   f"<notes>\nline {escaped}\n</notes> after {raw}\n"
                   f"<open>\nno closer {raw}\n")
    assert [name for _s, _e, name in tagged_blocks(body)] == ["world-lore", "notes"]


def test_front_matter_is_not_interpolated() -> None:
    body = "---\nname: {{ player.message }}\n---\nHello {{ world.name }}"
    assert interpolate(body, {"world": {"name": "灯岭镇"}}, front_matter=True) == "Hello 灯岭镇"
    assert [r.path for r in references(body, front_matter=True)] == ["world.name"]
    assert [r.path for r in references(body)] == ["player.message", "world.name"]


def test_catalog_lookup_and_volatility() -> None:
    assert lookup("player.message").changes_between_turns
    assert lookup("inputs.narrator.main.story").path == "inputs"
    assert lookup("world.dimensions.reputation.value").changes_between_turns
    assert lookup("userSettings.tone").changes_between_turns is False
    assert lookup("player.character.name") is not None
    assert lookup("player.nickname") is None and lookup("session.id.x") is None
    volatile = {v.path for v in CATALOG if v.changes_between_turns}
    assert volatile == {"player.message", "player.lastFormValues", "player.lastFormValuesRaw", "player.character",
                        "characters.npcs", "session.turnNumber", "inputs", "world.dimensions"}
    assert example_variables()["world"]["name"] == "灯岭镇"


def test_diagnostics() -> None:
    body = ("You narrate {{ world.name }} (turn {{ session.turnNumber }}).\n"
            "<world-lore>{{ world.lore }}</world-lore>\n"
            "Player: {{ player.nick }}\n")
    found = check_covel(body, "RUNTIME.md")
    assert [(d.code, d.severity, d.variable) for d in found] == [
        (dg.COVEL_VOLATILE_IN_SYSTEM, dg.WARNING, "session.turnNumber"),
        (dg.COVEL_ESCAPED_IN_TAG, dg.INFO, "world.lore"),
        (dg.COVEL_UNKNOWN_VARIABLE, dg.ERROR, "player.nick"),
    ]
    assert "turn segment" in found[0].message and all(d.block_id == "RUNTIME.md" for d in found)
    unknown = found[2]
    assert body[unknown.start:unknown.end] == "player.nick" and unknown.line == 3
    assert "characterSheetSegments" in check_covel("{{ characters.npcs }}")[0].message
    assert check_covel("{{ session.turnNumber }}", in_system_prompt=False) == []


def test_a_path_to_a_whole_group_is_known_and_renders_as_json() -> None:
    # {{ world }} renders the whole object in Covel; it is not an unknown variable.
    variables = {"world": {"name": "灯岭镇"}, "session": {"id": "S", "turnNumber": 3}}
    assert interpolate("{{ world }}", variables) == '{\n  "name": "灯岭镇"\n}'
    assert [d.code for d in check_covel("{{ world.name }} {{ session.id }}")] == []
    found = [(d.code, d.variable) for d in check_covel("{{ world }}\n{{ session }}\n{{ player }}\n{{ characters }}")]
    # Each group holds a value that changes between turns, so the whole group does too.
    assert found == [(dg.COVEL_VOLATILE_IN_SYSTEM, "world"), (dg.COVEL_VOLATILE_IN_SYSTEM, "session"),
                     (dg.COVEL_VOLATILE_IN_SYSTEM, "player"), (dg.COVEL_VOLATILE_IN_SYSTEM, "characters")]
    assert lookup("world") is not None and lookup("world").changes_between_turns
    assert lookup("worl") is None


def test_length_and_indices_of_a_list_variable_are_known() -> None:
    assert interpolate("{{ world.tags.length }}/{{ world.tags.0 }}", example_variables()) == "2/古镇"
    assert check_covel("{{ world.tags.length }} {{ world.tags.1 }}") == []
    assert [d.code for d in check_covel("{{ world.tags.first }} {{ world.name.length }}")] == [
        dg.COVEL_UNKNOWN_VARIABLE, dg.COVEL_UNKNOWN_VARIABLE]


def test_spaces_inside_the_braces_are_javascripts() -> None:
    # JavaScript's \s and trim() include U+FEFF and exclude the information separators U+001C..1F,
    # which Python's \s and str.strip() treat the other way round.
    variables = {"world": {"name": "N"}}
    assert interpolate("{{\ufeffworld.name\ufeff}}|{{\u3000world.name}}", variables) == "N|N"
    assert interpolate("{{\x1cworld.name}}", variables) == ""
    assert [d.code for d in check_covel("{{\x1cworld.name}}")] == [dg.COVEL_UNKNOWN_VARIABLE]
    assert [d.code for d in check_covel("{{\ufeffworld.name}}")] == []
