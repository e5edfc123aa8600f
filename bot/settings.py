"""Settings: one TOML file, every key overridable by SCHOOLBOT_<SECTION>_<KEY>.

The file is found from ``--config``, else ``$SCHOOLBOT_CONFIG``, else
``schoolbot.toml`` in the working directory if it exists; with none, the
defaults below apply. A wrong section, key or value is an error that names it.
Secrets (tokens) are never part of a repr, so they are never printed or logged.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import config

# The shipped data (boards, intents, knowledge packs): the `config` package of the
# distribution, beside bot/ in a clone and in site-packages once installed. Its
# directory is what importlib.resources.files("config") gives for an installed
# package, without importing importlib.resources (and tempfile) on every start.
CONFIG_DIR = Path(config.__file__).parent
ENV_PREFIX = "SCHOOLBOT_"


class SettingsError(ValueError):
    """A settings file or environment variable is wrong; the message names it."""


@dataclass(frozen=True)
class DatabaseSettings:
    path: str = "schoolbot.db"  # created on first use; relative to the working directory


@dataclass(frozen=True)
class KnowledgeSettings:
    boards: str = str(CONFIG_DIR / "boards.yaml")
    intents: str = str(CONFIG_DIR / "intents.yaml")
    subjects: str = str(CONFIG_DIR / "subjects.yaml")  # what questions are about (workers, services)
    default: str = str(CONFIG_DIR / "knowledge" / "cupe-2019.yaml")  # loaded into an empty database
    timezone: str = "America/Toronto"


@dataclass(frozen=True)
class MatcherSettings:
    min_confidence: float = 0.35  # below this best score the bot abstains
    min_margin: float = 0.02  # best minus second best intent score; below it the bot abstains
    max_chars: int = 2000  # longer messages are matched on their first max_chars characters


@dataclass(frozen=True)
class TelegramSettings:
    token: str = field(default="", repr=False)
    base_url: str = ""  # a self-hosted Bot API server, e.g. http://127.0.0.1:8081/bot
    webhook_url: str = ""
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    webhook_secret: str = field(default="", repr=False)


@dataclass(frozen=True)
class DiscordSettings:
    token: str = field(default="", repr=False)
    dm_pace_seconds: float = 1.0  # pause between broadcast DMs: fast DM fan-out looks like spam


@dataclass(frozen=True)
class RolesSettings:
    # "platform:user_id", e.g. "telegram:12345"
    province_admins: tuple[str, ...] = ()
    # "platform:user_id=board,board", e.g. "telegram:777=tdsb,tcdsb"
    board_staff: tuple[str, ...] = ()


@dataclass(frozen=True)
class LimitsSettings:
    broadcast_max_chars: int = 3500
    status_note_max_chars: int = 1000
    delivery_concurrency: int = 8  # sends in flight at once per platform worker
    telegram_per_second: float = 30.0  # overall; 0 turns the limiter off (benchmarks)


@dataclass(frozen=True)
class AnswersSettings:
    stale_after_days: int = 3  # a status answer whose newest news is older says so in its first line
    coverage_days: int = 30  # a pack with no `ended` covers this long after its newest news


@dataclass(frozen=True)
class Settings:
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    knowledge: KnowledgeSettings = field(default_factory=KnowledgeSettings)
    matcher: MatcherSettings = field(default_factory=MatcherSettings)
    telegram: TelegramSettings = field(default_factory=TelegramSettings)
    discord: DiscordSettings = field(default_factory=DiscordSettings)
    roles: RolesSettings = field(default_factory=RolesSettings)
    limits: LimitsSettings = field(default_factory=LimitsSettings)
    answers: AnswersSettings = field(default_factory=AnswersSettings)
    source: str = "defaults"  # where the settings came from, for messages

    def replace(self, section: str, **changes: Any) -> Settings:
        """A copy with some keys of one section changed (used by --db and tests)."""
        return dataclasses.replace(
            self, **{section: dataclasses.replace(getattr(self, section), **changes)}
        )


SECTIONS = {f.name: f.type for f in dataclasses.fields(Settings) if f.name != "source"}


def _section_class(name: str) -> type:
    return type(getattr(Settings(), name))


def _coerce(value: Any, default: Any, where: str) -> Any:
    """Check or convert one value to the type of its default."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"1", "true", "yes", "on", "0", "false", "no", "off"}:
            return value.lower() in {"1", "true", "yes", "on"}
        raise SettingsError(f"{where}: expected true or false, got {value!r}")
    if isinstance(default, int) and not isinstance(default, bool):
        try:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError
            return int(value)
        except (TypeError, ValueError):
            raise SettingsError(f"{where}: expected a whole number, got {value!r}") from None
    if isinstance(default, float):
        try:
            if isinstance(value, bool):
                raise ValueError
            return float(value)
        except (TypeError, ValueError):
            raise SettingsError(f"{where}: expected a number, got {value!r}") from None
    if isinstance(default, tuple):
        if isinstance(value, str):
            return tuple(item.strip() for item in value.split(";") if item.strip())
        if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
            return tuple(value)
        raise SettingsError(f"{where}: expected a list of strings, got {value!r}")
    if isinstance(value, str):
        return value
    raise SettingsError(f"{where}: expected a string, got {value!r}")


def _build_section(name: str, given: Mapping[str, Any], origin: str) -> Any:
    cls = _section_class(name)
    defaults = cls()
    known = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for key, value in given.items():
        if key not in known:
            raise SettingsError(
                f"{origin}: unknown key [{name}] {key!r}; known keys: {', '.join(sorted(known))}"
            )
        values[key] = _coerce(value, getattr(defaults, key), f"{origin}: [{name}] {key}")
    return dataclasses.replace(defaults, **values)


def find_config_file(explicit: str | None, environ: Mapping[str, str]) -> Path | None:
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise SettingsError(f"settings file {explicit} does not exist")
        return path
    if environ.get("SCHOOLBOT_CONFIG"):
        path = Path(environ["SCHOOLBOT_CONFIG"])
        if not path.is_file():
            raise SettingsError(f"SCHOOLBOT_CONFIG points at {path}, which does not exist")
        return path
    local = Path("schoolbot.toml")
    return local if local.is_file() else None


def load_settings(path: str | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """Read the TOML file (if any), then apply SCHOOLBOT_<SECTION>_<KEY> variables."""
    environ = os.environ if environ is None else environ
    config_file = find_config_file(path, environ)
    data: dict[str, Any] = {}
    origin = "defaults"
    if config_file is not None:
        origin = str(config_file)
        try:
            data = tomllib.loads(config_file.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"{config_file}: not valid TOML: {exc}") from None
    for section in data:
        if section not in SECTIONS:
            raise SettingsError(
                f"{origin}: unknown section [{section}]; known sections: {', '.join(SECTIONS)}"
            )
        if not isinstance(data[section], dict):
            raise SettingsError(f"{origin}: [{section}] must be a table of keys")

    merged: dict[str, dict[str, Any]] = {name: dict(data.get(name, {})) for name in SECTIONS}
    for var, value in environ.items():
        if not var.startswith(ENV_PREFIX) or var == "SCHOOLBOT_CONFIG":
            continue
        rest = var[len(ENV_PREFIX):].lower()
        section = next((s for s in SECTIONS if rest.startswith(s + "_")), None)
        if section is None:
            raise SettingsError(
                f"environment variable {var}: no such settings section "
                f"(use SCHOOLBOT_<SECTION>_<KEY> with one of: {', '.join(SECTIONS)})"
            )
        key = rest[len(section) + 1:]
        known = {f.name for f in dataclasses.fields(_section_class(section))}
        if key not in known:
            raise SettingsError(
                f"environment variable {var}: unknown key {key!r} in [{section}]; "
                f"known keys: {', '.join(sorted(known))}"
            )
        default = getattr(_section_class(section)(), key)
        merged[section][key] = _coerce(value, default, f"environment variable {var}")

    built = {name: _build_section(name, values, origin) for name, values in merged.items()}
    settings = Settings(**built, source=origin)
    validate(settings)
    return settings


def validate(settings: Settings) -> None:
    m = settings.matcher
    if not 0 <= m.min_confidence <= 1:
        raise SettingsError(f"[matcher] min_confidence must be between 0 and 1, got {m.min_confidence}")
    if not 0 <= m.min_margin <= 1:
        raise SettingsError(f"[matcher] min_margin must be between 0 and 1, got {m.min_margin}")
    if m.max_chars < 50:
        raise SettingsError(f"[matcher] max_chars must be at least 50, got {m.max_chars}")
    for entry in settings.roles.province_admins:
        parse_user_ref(entry, "[roles] province_admins")
    for entry in settings.roles.board_staff:
        parse_board_staff(entry)
    if settings.limits.delivery_concurrency < 1:
        raise SettingsError("[limits] delivery_concurrency must be at least 1")


def parse_user_ref(entry: str, where: str) -> tuple[str, str]:
    platform, sep, user_id = entry.partition(":")
    if not sep or not platform.strip() or not user_id.strip():
        raise SettingsError(f"{where}: {entry!r} must look like 'platform:user_id', e.g. 'telegram:12345'")
    return platform.strip().lower(), user_id.strip()


def parse_board_staff(entry: str) -> tuple[str, str, tuple[str, ...]]:
    where = "[roles] board_staff"
    user, sep, boards = entry.partition("=")
    if not sep or not boards.strip():
        raise SettingsError(f"{where}: {entry!r} must look like 'platform:user_id=board,board'")
    platform, user_id = parse_user_ref(user, where)
    board_ids = tuple(b.strip().lower() for b in boards.split(",") if b.strip())
    return platform, user_id, board_ids
