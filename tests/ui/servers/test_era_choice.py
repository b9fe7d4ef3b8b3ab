"""The Protocol era choice of the server dialog and the server panel's words for what was negotiated."""

from __future__ import annotations

from inspector.config.eras import ERAS, KNOWN_VERSIONS
from inspector.config.profile import ServerProfile
from inspector.core.era import Negotiation
from inspector.ui.servers.profile_dialog import ERA_LABELS, ProfileDialog, era_explanation
from inspector.ui.servers.status_panel import negotiation_text, protocol_text, supported_text


def test_every_setting_is_offered_and_explained(qtbot) -> None:
    dialog = ProfileDialog(ServerProfile(name="s", command="x"))
    qtbot.addWidget(dialog)
    offered = [dialog.era_combo.itemData(i) for i in range(dialog.era_combo.count())]
    assert set(offered) == {*ERAS, *KNOWN_VERSIONS} and offered[0] == "auto"
    assert dialog.era() == "auto" and "server/discover" in dialog.era_note.text()
    assert era_explanation("2025-06-18").startswith("Speaks exactly 2025-06-18, no fallback.")
    assert "_meta" in era_explanation("2026-07-28")
    assert set(ERA_LABELS) == set(offered)


def test_the_era_round_trips_and_a_change_forgets_what_auto_learned(qtbot) -> None:
    profile = ServerProfile(name="s", command="x", protocol_era="auto", learned_era="legacy")
    dialog = ProfileDialog(profile)
    qtbot.addWidget(dialog)
    assert dialog.build_profile().learned_era == "legacy"  # unchanged setting: kept
    dialog.era_combo.setCurrentIndex(dialog.era_combo.findData("2025-11-25"))
    assert "Pinned" in dialog.era_combo.currentText() and "2025-11-25" in dialog.era_note.text()
    built = dialog.build_profile()
    assert (built.protocol_era, built.learned_era) == ("2025-11-25", None)
    assert ProfileDialog(built).era() == "2025-11-25"


def test_the_panel_words_for_each_way_of_reaching_an_era() -> None:
    modern = Negotiation(setting="auto", era="modern", version="2026-07-28", probe_ms=12, probe_outcome="answered")
    modern.discover = {"supportedVersions": ["2025-11-25", "2026-07-28"]}
    assert protocol_text(modern, None) == "modern 2026-07-28"
    assert negotiation_text(modern) == "auto: server/discover answered."
    assert supported_text(modern) == "2025-11-25, 2026-07-28"
    legacy = Negotiation(setting="legacy", era="legacy", version="2025-11-25")
    assert negotiation_text(legacy) == "legacy: initialize handshake, no probe."
    assert supported_text(legacy).startswith("— (initialize handshake")
    pinned = Negotiation(setting="2026-07-28", era="modern", version="2026-07-28")
    assert negotiation_text(pinned) == "pinned to 2026-07-28: server/discover, no fallback."
    remembered = Negotiation(setting="auto", era="legacy", version="2025-11-25", remembered=True)
    assert "left server/discover unanswered before" in negotiation_text(remembered)
    assert protocol_text(None, "2025-06-18") == "2025-06-18"


def test_copy_as_command_keeps_the_era() -> None:
    from inspector.ui.main_window import cli_target

    assert cli_target(ServerProfile(name="s", command="srv", args=["-v"])) == ["--", "srv", "-v"]
    legacy = ServerProfile(name="s", command="srv", protocol_era="legacy")
    assert cli_target(legacy) == ["--protocol-era", "legacy", "--", "srv"]
    pinned = ServerProfile(name="h", transport="http", url="http://127.0.0.1:9/mcp", protocol_era="2026-07-28")
    assert cli_target(pinned)[-2:] == ["--protocol-version", "2026-07-28"]


def test_the_app_command_line_sets_the_era_of_the_server_it_opens() -> None:
    import pytest

    from inspector.app import initial_profile, parse_args

    args = parse_args(["--protocol-version", "2025-06-18", "srv", "--flag"])
    assert args.protocol_era == "2025-06-18" and args.command == ["srv", "--flag"]
    profile = initial_profile(args, None, None)
    assert (profile.command, profile.args, profile.protocol_era) == ("srv", ["--flag"], "2025-06-18")
    assert initial_profile(parse_args(["srv"]), None, None).protocol_era == "auto"
    with pytest.raises(SystemExit):
        parse_args(["--protocol-era", "modern"])  # no server given: nothing to apply it to
