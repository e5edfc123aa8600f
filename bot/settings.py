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
from knowledge.reading import LoadError, read_text, shown

# The shipped data (boards, intents, knowledge packs): the `config` package of the
# distribution, beside bot/ in a clone and in site-packages once installed. Its
# directory is what importlib.resources.files("config") gives for an installed
# package, without importing importlib.resources (and tempfile) on every start.
CONFIG_DIR = Path(config.__file__).parent
ENV_PREFIX = "SCHOOLBOT_"


class SettingsError(ValueError):
    """A settings file or environment variable is wrong; the message names it."""


def within(low: float, high: float | None = None) -> dict:
    """A number setting's allowed range, checked by :func:`validate` for every key that has one."""
    return {"range": (low, high)}


@dataclass(frozen=True)
class DatabaseSettings:
    path: str = "schoolbot.db"  # created on first use; relative to the working directory


@dataclass(frozen=True)
class KnowledgeSettings:
    # the region (its boards, time zone, languages, words) loaded with the default pack; packs naming no region
    # are in it. Other regions: `schoolbot kb load REGION.yaml` (docs/packs.md, "A new region")
    region: str = str(CONFIG_DIR / "regions" / "ontario.yaml")
    intents: str = str(CONFIG_DIR / "intents.yaml")
    subjects: str = str(CONFIG_DIR / "subjects.yaml")  # what questions are about (workers, services)
    default: str = str(CONFIG_DIR / "knowledge" / "cupe-2019.yaml")  # loaded into an empty database
    timezone: str = ""  # empty: the time zone of the active packs' region; an IANA name overrides it


@dataclass(frozen=True)
class MatcherSettings:
    min_confidence: float = field(default=0.35, metadata=within(0, 1))  # below this best score the bot abstains
    # best minus second best intent score; below it the bot abstains
    min_margin: float = field(default=0.02, metadata=within(0, 1))
    # longer messages are matched on their first max_chars characters
    max_chars: int = field(default=2000, metadata=within(50))


@dataclass(frozen=True)
class TelegramSettings:
    token: str = field(default="", repr=False)
    base_url: str = ""  # a self-hosted Bot API server, e.g. http://127.0.0.1:8081/bot
    webhook_url: str = ""
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = field(default=8443, metadata=within(1, 65535))
    webhook_secret: str = field(default="", repr=False)


@dataclass(frozen=True)
class DiscordSettings:
    token: str = field(default="", repr=False)
    # pause between broadcast DMs: fast DM fan-out looks like spam
    dm_pace_seconds: float = field(default=1.0, metadata=within(0))


@dataclass(frozen=True)
class RolesSettings:
    # "platform:user_id", e.g. "telegram:12345"
    province_admins: tuple[str, ...] = ()
    # "platform:user_id=board,board", e.g. "telegram:777=tdsb,tcdsb"
    board_staff: tuple[str, ...] = ()


@dataclass(frozen=True)
class LimitsSettings:
    broadcast_max_chars: int = field(default=3500, metadata=within(50))
    status_note_max_chars: int = field(default=1000, metadata=within(50))
    delivery_concurrency: int = field(default=8, metadata=within(1, 1000))  # sends in flight per platform worker, and of replies
    # overall; 0 turns the limiter off (benchmarks)
    telegram_per_second: float = field(default=30.0, metadata=within(0))


@dataclass(frozen=True)
class AnswersSettings:
    # a status answer whose newest news is older says so in its first line
    stale_after_days: int = field(default=3, metadata=within(0, 365))
    # a pack with no `ended` covers this long after its newest news
    coverage_days: int = field(default=30, metadata=within(1, 3650))


@dataclass(frozen=True)
class WebSettings:
    # The address of the staff web page as staff's browsers reach it: sign-in links (/web, `schoolbot web-link`)
    # start with it. Behind a reverse proxy with HTTPS, e.g. https://staff.example.org (docs/web.md).
    url: str = "http://127.0.0.1:8080"
    # how long a browser stays signed in
    session_hours: float = field(default=12.0, metadata=within(0.1, 24 * 30))


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
    web: WebSettings = field(default_factory=WebSettings)
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


# Keys that were renamed: what to write instead.
RENAMED = {("knowledge", "boards"): "boards now come with their region: write [knowledge] region = \"REGION.yaml\" "
                                    "(a `region:` header and its `boards:`; docs/packs.md, \"A new region\"), or load "
                                    "a boards file with `schoolbot kb load FILE`"}


def _build_section(name: str, given: Mapping[str, Any], origin: str) -> Any:
    cls = _section_class(name)
    defaults = cls()
    known = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for key, value in given.items():
        if key not in known:
            moved = RENAMED.get((name, key))
            raise SettingsError(
                f"{origin}: unknown key [{name}] {key!r}; " + (moved or f"known keys: {', '.join(sorted(known))}")
            )
        values[key] = _coerce(value, getattr(defaults, key), f"{origin}: [{name}] {key}")
    return dataclasses.replace(defaults, **values)


def find_config_file(explicit: str | None, environ: Mapping[str, str]) -> Path | None:
    if explicit:
        path = Path(explicit)
        if not path.exists():  # anything else that is not a regular file: the reader says what it is
            raise SettingsError(f"settings file {explicit} does not exist")
        return path
    if environ.get("SCHOOLBOT_CONFIG"):
        path = Path(environ["SCHOOLBOT_CONFIG"])
        if not path.exists():
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
            data = tomllib.loads(read_text(config_file))  # a regular file under the size limit
        except LoadError as exc:
            raise SettingsError(str(exc)) from None
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
    """Every number within its range, a real time zone, well-formed roles; one line naming the key otherwise."""
    for name in SECTIONS:
        section = getattr(settings, name)
        for key in dataclasses.fields(section):
            if "range" not in key.metadata:
                continue
            low, high = key.metadata["range"]
            value = getattr(section, key.name)
            if value < low or (high is not None and value > high):
                allowed = f"between {low:g} and {high:g}" if high is not None else f"at least {low:g}"
                raise SettingsError(f"{origin_of(settings)}[{name}] {key.name} must be {allowed}, got {value:g} "
                                    f"(set it in the settings file or SCHOOLBOT_{name.upper()}_{key.name.upper()})")
    if settings.knowledge.timezone:
        _check_timezone(settings.knowledge.timezone, origin_of(settings))
    for entry in settings.roles.province_admins:
        parse_user_ref(entry, "[roles] province_admins")
    for entry in settings.roles.board_staff:
        parse_board_staff(entry)


def origin_of(settings: Settings) -> str:
    """"file: " before a message about a setting read from a file; nothing for the defaults and environment."""
    return "" if settings.source == "defaults" else f"{settings.source}: "


def _check_timezone(name: str, origin: str) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise SettingsError(f"{origin}[knowledge] timezone {shown(name)} is not a time zone: use an IANA name "
                            "such as America/Toronto (or SCHOOLBOT_KNOWLEDGE_TIMEZONE)") from None


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
