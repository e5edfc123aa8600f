from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings


def write(tmp_path, text):
    path = tmp_path / "schoolbot.toml"
    path.write_text(text)
    return str(path)


def test_defaults_without_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = load_settings(environ={})
    assert settings.database.path == "schoolbot.db"
    assert settings.source == "defaults"


def test_file_values_and_env_override(tmp_path):
    path = write(tmp_path, '[database]\npath = "a.db"\n[matcher]\nmin_confidence = 0.6\n')
    settings = load_settings(path, environ={"SCHOOLBOT_DATABASE_PATH": "b.db", "SCHOOLBOT_MATCHER_MIN_MARGIN": "0.1"})
    assert settings.database.path == "b.db"
    assert settings.matcher.min_confidence == 0.6
    assert settings.matcher.min_margin == 0.1


def test_list_from_environment(tmp_path):
    settings = load_settings(write(tmp_path, ""), environ={"SCHOOLBOT_ROLES_PROVINCE_ADMINS": "telegram:1; discord:2"})
    assert settings.roles.province_admins == ("telegram:1", "discord:2")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[databse]\npath = 'x'\n", "unknown section [databse]"),
        ("[database]\npth = 'x'\n", "unknown key [database] 'pth'"),
        ("[matcher]\nmin_confidence = 'high'\n", "[matcher] min_confidence: expected a number"),
        ("[matcher]\nmin_confidence = 3\n", "min_confidence must be between 0 and 1"),
        ("[roles]\nprovince_admins = ['12345']\n", "must look like 'platform:user_id'"),
        ("[limits]\ndelivery_concurrency = 2.5\n", "expected a whole number"),
        ("not toml at all [", "not valid TOML"),
    ],
)
def test_bad_file_names_the_key(tmp_path, text, fragment):
    with pytest.raises(SettingsError) as info:
        load_settings(write(tmp_path, text), environ={})
    assert fragment in str(info.value)


def test_bad_environment_variable_names_it(tmp_path):
    with pytest.raises(SettingsError, match="SCHOOLBOT_TELEGRAM_TOKN"):
        load_settings(write(tmp_path, ""), environ={"SCHOOLBOT_TELEGRAM_TOKN": "x"})
    with pytest.raises(SettingsError, match="SCHOOLBOT_NOPE_X"):
        load_settings(write(tmp_path, ""), environ={"SCHOOLBOT_NOPE_X": "x"})


def test_missing_config_file_is_an_error(tmp_path):
    with pytest.raises(SettingsError, match="does not exist"):
        load_settings(str(tmp_path / "missing.toml"), environ={})


def test_secrets_never_in_repr(tmp_path):
    settings = load_settings(
        write(tmp_path, '[telegram]\ntoken = "123:SECRET"\n[discord]\ntoken = "DISCORDSECRET"\n'), environ={}
    )
    assert settings.telegram.token == "123:SECRET"
    shown = repr(settings) + str(settings)
    assert "SECRET" not in shown


def test_replace_changes_one_key():
    settings = Settings().replace("database", path="x.db")
    assert settings.database.path == "x.db"
    assert settings.matcher == Settings().matcher


def test_bad_environment_value_names_the_variable(tmp_path):
    with pytest.raises(SettingsError, match="environment variable SCHOOLBOT_MATCHER_MIN_MARGIN: expected a number"):
        load_settings(write(tmp_path, ""), environ={"SCHOOLBOT_MATCHER_MIN_MARGIN": "lots"})


def test_the_shipped_data_is_found_beside_the_code_not_the_working_directory(tmp_path, monkeypatch):
    import config

    monkeypatch.chdir(tmp_path)
    settings = load_settings(environ={})
    shipped = Path(config.__file__).parent
    for path in (settings.knowledge.region, settings.knowledge.intents, settings.knowledge.default):
        assert Path(path).is_file() and Path(path).parent.is_relative_to(shipped), path
    assert settings.database.path == "schoolbot.db"  # the database: the working directory
