"""The user's saved server profiles, in an `mcp.json`-shaped file written atomically.

Several windows (processes) may share the file: `save()` holds an exclusive lock on the file's
folder, re-reads the file and applies only this store's own changes since it last loaded or saved,
so what another window saved meanwhile is kept.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspector.config.eras import EraError, parse_era
from inspector.config.files import folder_lock, private_folder, stamped_sibling, write_atomic
from inspector.config.locations import app_data_dir
from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.servers_damage import Damage, read_config

EXTRAS_KEY = "x-mcp-lens"
STORE_VERSION = 1
FILE_NAME = "servers.json"
# OAuth settings of HTTP profiles, kept in the x-mcp-lens server record (a client secret makes the file 0600).
_OAUTH_EXTRAS = (
    ("oauthClientId", "oauth_client_id"),
    ("oauthClientSecret", "oauth_client_secret"),
    ("oauthScopes", "oauth_scopes"),
    ("oauthGrant", "oauth_grant"),
    ("oauthPrivateKeyFile", "oauth_private_key_file"),
    ("oauthAssertionFile", "oauth_assertion_file"),
    ("oauthAssertionEnv", "oauth_assertion_env"),
    ("oauthIdpTokenEndpoint", "oauth_idp_token_endpoint"),
    ("oauthIdpIssuer", "oauth_idp_issuer"),
    ("oauthIdpClientId", "oauth_idp_client_id"),
    ("oauthIdpClientSecret", "oauth_idp_client_secret"),
    ("oauthIssuer", "oauth_issuer"),
)


def default_path(
    *, environ: Mapping[str, str] | None = None, platform: str | None = None, home: Path | None = None
) -> Path:
    """Where the profiles live: XDG config dir, `~/Library/Application Support`, or `%APPDATA%`."""
    return app_data_dir(environ=environ, platform=platform, home=home) / "mcp-lens" / FILE_NAME


def extras_of(profile: ServerProfile) -> dict[str, Any]:
    """Our fields that have no place in an `mcp.json` entry (empty when there are none)."""
    extras: dict[str, Any] = {}
    if profile.secret_headers:
        extras["secretHeaders"] = list(profile.secret_headers)
    if profile.roots:
        extras["roots"] = list(profile.roots)
    for key, attr in _OAUTH_EXTRAS:
        if getattr(profile, attr, None):
            extras[key] = getattr(profile, attr)
    if profile.oauth_dpop:
        extras["oauthDpop"] = True
    if profile.inputs:
        extras["inputs"] = [dict(decl) for decl in profile.inputs]
    if profile.load_remote_icons:
        extras["loadRemoteIcons"] = True
    if profile.protocol_era != "auto":
        extras["protocolEra"] = profile.protocol_era
    if profile.learned_era:
        extras["learnedEra"] = profile.learned_era
    return extras


def apply_extras(profile: ServerProfile, extras: Any, *, source: str | None = None) -> None:
    """Copy `secretHeaders`, `roots`, the OAuth settings, `inputs` and `loadRemoteIcons` from an `x-mcp-lens`
    server record."""
    if not isinstance(extras, dict):
        return
    for key, attr in (("secretHeaders", "secret_headers"), ("roots", "roots")):
        value = extras.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ProfileError(
                "expected a list of strings", source=source, server=profile.name, field=f"{EXTRAS_KEY}.{key}"
            )
        setattr(profile, attr, list(value))
    for key, attr in _OAUTH_EXTRAS:
        value = extras.get(key)
        if value is not None and not isinstance(value, str):
            raise ProfileError("expected a string", source=source, server=profile.name, field=f"{EXTRAS_KEY}.{key}")
        setattr(profile, attr, value or None)
    profile.oauth_dpop = extras.get("oauthDpop") is True
    inputs = extras.get("inputs", [])
    if not isinstance(inputs, list) or not all(isinstance(d, dict) and isinstance(d.get("id"), str) for d in inputs):
        raise ProfileError(
            "expected a list of input declarations with an 'id'",
            source=source,
            server=profile.name,
            field=f"{EXTRAS_KEY}.inputs",
        )
    profile.inputs = [dict(d) for d in inputs]
    profile.load_remote_icons = extras.get("loadRemoteIcons") is True
    era = extras.get("protocolEra", "auto")
    try:
        profile.protocol_era = parse_era(era if isinstance(era, str) else repr(era))
    except EraError as exc:
        raise ProfileError(str(exc), source=source, server=profile.name, field=f"{EXTRAS_KEY}.protocolEra") from None
    learned = extras.get("learnedEra")
    profile.learned_era = learned if learned in ("legacy", "modern") else None


NOT_READ = "not saved: this file could not be read, and MCP Lens never writes over a file it could not read"
_CHANGED_MEANWHILE = (
    "not saved: another program changed the file and it no longer parses ({}); fix or move it, then save again"
)


class ProfileStore:
    """An ordered set of named profiles backed by one JSON file.

    Call `load()` first; mutations change memory only until `save()`. A damaged file (UTF-16, a byte that is
    not UTF-8, cut) loads with what is intact (`damage` says what was not, `damage_backup` holds its bytes as
    they were, copied before anything writes the file); one where no server list is found is never
    overwritten: `save()` refuses until `backup_corrupt()` moves it aside.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._profiles: dict[str, ServerProfile] = {}
        self._baseline: dict[str, str] = {}  # name → record, as last loaded from or saved to the file
        self._loaded = False
        self.damage: Damage | None = None
        self.damage_backup: Path | None = None

    # -- reading -------------------------------------------------------------------------
    def load(self) -> list[ServerProfile]:
        """Read the file (a missing file means no profiles); raise `ProfileError` if it is corrupt."""
        self._loaded = False
        self._profiles, self._baseline = {}, {}
        self.damage, self.damage_backup = None, None
        source = str(self.path)
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self._loaded = True
            return []
        except OSError as exc:
            raise ProfileError(f"cannot read file: {exc.strerror or exc}", source=source) from exc
        data, damage = read_config(raw, source, lenient=False)
        if damage is not None:
            self.damage_backup = self._keep_original(raw)
        self._profiles = self._parse(data, source, damage)
        self.damage = damage
        self._baseline = _records(self._profiles)
        self._loaded = True
        return self.profiles()

    def _keep_original(self, raw: bytes) -> Path:
        """A copy of the damaged file's bytes beside it (``.corrupt-<time>``; one already holding them is reused)."""
        for old in sorted(self.path.parent.glob(f"{self.path.name}.corrupt-*")):
            try:
                if old.stat().st_size == len(raw) and old.read_bytes() == raw:
                    return old
            except OSError:
                continue
        return write_atomic(stamped_sibling(self.path, "corrupt"), raw)

    @staticmethod
    def _parse(data: Any, source: str, damage: Damage | None = None) -> dict[str, ServerProfile]:
        """The profiles of the file's data; in a damaged file (`damage`) an invalid entry is left out and said."""
        if not isinstance(data, dict):
            raise ProfileError(f"expected a JSON object at the top level, got {type(data).__name__}", source=source)
        table = data.get("mcpServers", {})
        if not isinstance(table, dict):
            raise ProfileError(f"expected an object, got {type(table).__name__}", source=source, field="mcpServers")
        extras = data.get(EXTRAS_KEY, {})
        servers = extras.get("servers", {}) if isinstance(extras, dict) else {}
        servers = servers if isinstance(servers, dict) else {}
        out: dict[str, ServerProfile] = {}
        for name, entry in table.items():
            try:
                profile = ServerProfile.from_entry(name, entry, source=source)
                apply_extras(profile, servers.get(name), source=source)
            except ProfileError as exc:
                if damage is None:
                    raise
                damage.said.append(f"server {name!r}: {exc.reason}: it is left out")
                damage.lost += 1
                continue
            out[name] = profile
        return out

    def profiles(self) -> list[ServerProfile]:
        """The profiles, in file order."""
        return list(self._profiles.values())

    def names(self) -> list[str]:
        return list(self._profiles)

    def get(self, name: str) -> ServerProfile:
        """The profile called `name`; `ProfileError` (listing the names) if there is none."""
        try:
            return self._profiles[name]
        except KeyError:
            available = ", ".join(repr(n) for n in self._profiles) or "none"
            raise ProfileError(f"no server named {name!r}; available: {available}", source=str(self.path)) from None

    def __contains__(self, name: object) -> bool:
        return name in self._profiles

    def __len__(self) -> int:
        return len(self._profiles)

    # -- editing -------------------------------------------------------------------------
    def add(self, profile: ServerProfile) -> ServerProfile:
        """Add a new profile; its name must be unused."""
        profile.validate()
        if profile.name in self._profiles:
            raise ProfileError("a server with this name already exists", server=profile.name)
        self._profiles[profile.name] = profile
        return profile

    def update(self, profile: ServerProfile) -> ServerProfile:
        """Replace the profile with the same name, keeping its position."""
        profile.validate()
        self.get(profile.name)
        self._profiles[profile.name] = profile
        return profile

    def rename(self, old: str, new: str) -> ServerProfile:
        """Rename a profile in place (its position is kept)."""
        profile = self.get(old)
        if new == old:
            return profile
        if not new.strip():
            raise ProfileError("server name must be a non-empty string", server=new, field="name")
        if new in self._profiles:
            raise ProfileError("a server with this name already exists", server=new)
        renamed = profile.clone(name=new)
        self._profiles = {(new if k == old else k): (renamed if k == old else v) for k, v in self._profiles.items()}
        return renamed

    def duplicate(self, name: str, new_name: str | None = None) -> ServerProfile:
        """Copy a profile under `new_name` (default "<name> (copy)", "<name> (copy 2)", …)."""
        source = self.get(name)
        if new_name is None:
            new_name, n = f"{name} (copy)", 2
            while new_name in self._profiles:
                new_name, n = f"{name} (copy {n})", n + 1
        return self.add(source.clone(name=new_name))

    def delete(self, name: str) -> None:
        self.get(name)
        del self._profiles[name]

    # -- writing -------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """The file contents as a JSON-ready dict."""
        data: dict[str, Any] = {"mcpServers": {n: p.to_entry() for n, p in self._profiles.items()}}
        extras = {n: e for n, p in self._profiles.items() if (e := extras_of(p))}
        data[EXTRAS_KEY] = {"version": STORE_VERSION, "servers": extras}
        return data

    def unsaved_names(self) -> list[str]:
        """The profiles added, changed or deleted here since the file was last loaded or saved."""
        mine = _records(self._profiles)
        changed = [name for name, record in mine.items() if self._baseline.get(name) != record]
        return changed + [name for name in self._baseline if name not in mine]

    def save_copy(self) -> Path:
        """Write these profiles to `servers.json.unsaved-<time>` beside the file (which is left untouched),
        for when the file itself cannot be saved. Returns the copy's path."""
        copy = stamped_sibling(self.path, "unsaved")
        private_folder(self.path.parent)
        return write_atomic(copy, json.dumps(self.to_data(), indent=2, ensure_ascii=False) + "\n")

    def has_secrets(self) -> bool:
        return any(p.has_secrets() for p in self._profiles.values())

    def save(self) -> None:
        """Merge with the file under the folder lock and write it atomically, user-only (`config.files`)."""
        if not self._loaded:
            raise ProfileError(NOT_READ, source=str(self.path))
        for profile in self._profiles.values():
            profile.validate()
        private_folder(self.path.parent)
        with folder_lock(self.path.parent):
            self._profiles = self._merge_with_file()
            write_atomic(self.path, json.dumps(self.to_data(), indent=2, ensure_ascii=False) + "\n")
            self._baseline = _records(self._profiles)

    def _merge_with_file(self) -> dict[str, ServerProfile]:
        """This store's changes since its baseline, applied to what the file holds now.

        Profiles we added or changed win; ones we deleted go; ones another writer added, changed or
        deleted (and we did not touch) are taken from the file.
        """
        source = str(self.path)
        try:
            raw: bytes | None = self.path.read_bytes()
        except FileNotFoundError:
            raw = None
        except OSError as exc:
            raise ProfileError(f"cannot read file before saving: {exc.strerror or exc}", source=source) from exc
        on_disk: dict[str, ServerProfile] = {}
        if raw is not None:
            try:
                data, damage = read_config(raw, source, lenient=False)
            except ProfileError as exc:
                raise ProfileError(_CHANGED_MEANWHILE.format(exc.reason), source=source) from exc
            if damage is not None:  # its bytes kept before it is written over
                self.damage_backup = self._keep_original(raw)
            on_disk = self._parse(data, source, damage)
        mine = _records(self._profiles)
        merged: dict[str, ServerProfile] = {}
        for name, profile in self._profiles.items():
            if self._baseline.get(name) != mine[name]:
                merged[name] = profile
            elif name in on_disk:
                merged[name] = on_disk[name]
        for name, profile in on_disk.items():
            if name not in merged and name not in self._baseline:
                merged[name] = profile
        return merged

    def backup_corrupt(self) -> Path | None:
        """Move an unreadable file to `servers.json.corrupt-<timestamp>`; start empty. Returns the backup."""
        if not self.path.exists():
            self._profiles, self._baseline, self._loaded = {}, {}, True
            return None
        backup = stamped_sibling(self.path, "corrupt")
        os.replace(self.path, backup)
        self._profiles, self._baseline, self._loaded = {}, {}, True
        return backup


def _records(profiles: Mapping[str, ServerProfile]) -> dict[str, str]:
    """Each profile as a canonical string, to tell which ones changed."""
    return {
        name: json.dumps([p.to_entry(), extras_of(p)], sort_keys=True, ensure_ascii=False)
        for name, p in profiles.items()
    }
