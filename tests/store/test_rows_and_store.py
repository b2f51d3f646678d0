"""The hand-written SQL of the hot path (nard_site.rows, games.store) agrees with the ORM."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.authentication import TokenAuthentication
from accounts.services import token_obtain
from accounts.tokens import hash_key
from games import services, store
from games.models import Event, Game, Match, Turn
from nard_site.rows import RowCodec, batch, execute_together

pytestmark = pytest.mark.django_db


def _fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.fixture
def active(make_user: Any) -> tuple[Any, Match]:
    user = make_user()
    match = services.match_create(user=user, length=3, hotseat=True)
    for _ in range(12):  # past the roll-off, into a turn with dice on the table
        match = services.match_roll(match_id=match.pk, user=user).match
        if match.current_game.phase == "move":
            break
    return user, match


def _lock(match_id: int) -> tuple[Match, store.Loaded]:
    found = store.lock_match(match_id)
    assert found is not None
    return found


def test_lock_match_loads_what_the_orm_loads(active: tuple[Any, Match]) -> None:
    _user, match = active
    with transaction.atomic():
        locked, loaded = _lock(match.pk)
    orm = Match.objects.get(pk=match.pk)
    assert set(loaded) == {id(locked), id(locked.current_game),
                           id(locked.current_game.current_turn)}
    assert _fields(locked) == _fields(orm)
    game = Game.objects.get(pk=orm.current_game_id)
    assert _fields(locked.current_game) == _fields(game)
    assert locked.current_game.current_turn_id is not None
    turn = Turn.objects.get(pk=game.current_turn_id)
    assert _fields(locked.current_game.current_turn) == _fields(turn)
    assert locked.white is locked.black and locked.white.pk == orm.white_id  # hotseat
    assert locked.invited is None


def test_lock_match_of_a_missing_match_is_none(db: Any) -> None:
    with transaction.atomic():
        assert store.lock_match(987654) is None


def test_update_writes_only_what_changed_and_always_json(active: tuple[Any, Match]) -> None:
    _user, match = active
    with transaction.atomic():
        locked, loaded = _lock(match.pk)
        game = locked.current_game
        game.dice.append(99)  # an in-place change of a JSON value is not missed
        locked.version += 1
        with CaptureQueriesContext(connection) as queries:
            store.save([locked, game], [], loaded)
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    game_sql = re.search(r'UPDATE "games_game" SET (.*?) WHERE', sql).group(1)
    match_sql = re.search(r'UPDATE "games_match" SET (.*?) WHERE', sql).group(1)
    assert '"version"' in match_sql and '"score_white"' not in match_sql
    assert '"dice"' in game_sql  # JSON: always written
    assert '"position_key"' not in game_sql and '"turns"' not in game_sql
    assert Game.objects.get(pk=game.pk).dice[-1] == 99
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_row_read_elsewhere_is_written_whole(active: tuple[Any, Match]) -> None:
    _user, match = active
    game = Game.objects.get(pk=match.current_game_id)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        store.save([game], [])  # not in the loaded values: every column
    game_sql = re.search(r'UPDATE "games_game" SET (.*?) WHERE',
                         " ".join(q["sql"] for q in queries.captured_queries)).group(1)
    assert '"position_key"' in game_sql and '"turns"' in game_sql


def test_new_rows_go_in_in_order_whatever_order_they_come(make_user: Any) -> None:
    """A new match, its first game and a turn record are inserted match first, and the
    keys to rows inserted after them are written by the same save (no order dependence)."""
    from games.transitions import start_first_game, start_turn
    from games.unit_of_work import Change

    user = make_user()
    match = Match(created_by=user, white=user, black=user, hotseat=True, length=1,
                  status="open", version=0)
    change = Change(match)
    game = start_first_game(change)
    game.phase, game.turn = "roll", "white"
    start_turn(change, game, (3, 1))
    turn = game.current_turn
    with transaction.atomic():
        store.save([turn, game, match], change.events)  # the reverse of the insert order
    saved = Match.objects.get(pk=match.pk)
    assert saved.current_game_id == game.pk
    assert Game.objects.get(pk=game.pk).current_turn_id == turn.pk == Turn.objects.get(
        game=game).pk
    assert [e.type for e in saved.events.order_by("seq")] == ["game_start", "roll"]


def test_statements_run_together_report_their_row_counts(active: tuple[Any, Match]) -> None:
    _user, match = active
    turn = Turn.objects.filter(game__match=match).first()
    assert turn is not None
    codec = RowCodec(Turn)
    kept = codec.update_statement(turn)
    turn.pk = 10**9
    gone = codec.update_statement(turn)
    assert kept is not None and gone is not None
    event = Event(match=match, seq=10_001, type="test", at=match.created_at, data={})
    with transaction.atomic(), batch(), connection.cursor() as cursor:
        counts = execute_together(cursor, [kept, gone, RowCodec(Event).insert_statement([event])])
    assert counts == [1, 0, 1]
    assert Event.objects.filter(match=match, seq=10_001).exists()


def test_save_refuses_a_vanished_row(active: tuple[Any, Match]) -> None:
    _user, match = active
    with transaction.atomic():
        locked, _loaded = _lock(match.pk)
        Game.objects.filter(pk=locked.current_game_id).update(current_turn=None)
        Turn.objects.filter(pk=locked.current_game.current_turn_id).delete()
        with pytest.raises(Turn.DoesNotExist):
            store.save([locked.current_game.current_turn], [])


def test_insert_returns_keys_and_batch_raises_django_errors(active: tuple[Any, Match]) -> None:
    _user, match = active
    codec = RowCodec(Event)
    first = Event(match=match, seq=10_000, type="test", at=match.created_at, data={"a": [1]})
    with transaction.atomic():
        codec.insert(connection.cursor(), [first])
    assert first.pk is not None
    assert Event.objects.get(pk=first.pk).data == {"a": [1]}
    again = Event(match=match, seq=10_000, type="test", at=match.created_at, data={})
    with pytest.raises(IntegrityError), transaction.atomic(), batch():
        codec.insert(connection.cursor(), [again], returning=False)
    # the failed batch was rolled back with its savepoint; the connection carries on
    assert Event.objects.filter(match=match, seq=10_000).count() == 1
    with transaction.atomic():
        assert store.lock_match(match.pk) is not None  # the connection carries on


def test_token_authentication_reads_token_and_user(make_user: Any) -> None:
    user = make_user()
    key = token_obtain(user=user).key
    found, token = TokenAuthentication().authenticate_credentials(key)
    assert found.pk == user.pk and _fields(found) == _fields(type(user).objects.get(pk=user.pk))
    assert token.key_hash == hash_key(key) and token.user is found


def test_token_of_an_inactive_user_is_refused(make_user: Any) -> None:
    user = make_user()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_obtain(user=user).key}")
    assert client.get("/api/v1/accounts/me/").status_code == 200
    user.is_active = False
    user.save()
    response = client.get("/api/v1/accounts/me/")
    assert response.status_code == 401
    assert response.json()["error"]["message"] == "User inactive or deleted."
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert client.get("/api/v1/accounts/me/").json()["error"]["message"] == "Invalid token."


def test_read_match_is_the_locked_read_without_the_lock(active: tuple[Any, Match]) -> None:
    _user, match = active
    with transaction.atomic():
        locked, _loaded = _lock(match.pk)
    read = store.read_match(match.pk)
    assert read is not None
    for mine, theirs in ((read, locked), (read.current_game, locked.current_game),
                         (read.current_game.current_turn, locked.current_game.current_turn),
                         (read.white, locked.white)):
        assert _fields(mine) == _fields(theirs)
    assert store.read_match(987654) is None


def test_a_failed_save_leaves_nothing_behind_and_can_be_retried(
        active: tuple[Any, Match]) -> None:
    _user, match = active
    taken = Event.objects.filter(match=match).order_by("seq").first()
    assert taken is not None
    with transaction.atomic():
        locked, loaded = _lock(match.pk)
        locked.version += 1
        clash = Event(match=locked, seq=taken.seq, type="test", at=taken.at, data={})
        with pytest.raises(IntegrityError), transaction.atomic():
            store.save([locked], [clash], loaded)  # rolled back with its savepoint
        game = locked.current_game
        store.save([locked, game, game], [], loaded)  # the same change again; rows once each
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_an_orm_save_in_between_is_not_undone(active: tuple[Any, Match]) -> None:
    _user, match = active
    with transaction.atomic():
        locked, loaded = _lock(match.pk)
        locked.length = 5
        locked.save()  # through the ORM
        locked.length = 3  # back to what was loaded: compared with the load, no change
        store.save([locked], [], loaded)
    assert Match.objects.get(pk=match.pk).length == 5  # the loaded values are the caller's
    with transaction.atomic():
        locked, loaded = _lock(match.pk)
        locked.length = 3
        store.save([locked], [], loaded)
    assert Match.objects.get(pk=match.pk).length == 3


def test_many_events_are_written_in_chunks(active: tuple[Any, Match]) -> None:
    _user, match = active
    events = [Event(match=match, seq=20_000 + i, type="test", at=match.created_at, data={})
              for i in range(store.EVENTS_PER_STATEMENT + 5)]
    with transaction.atomic():
        locked, loaded = _lock(match.pk)
        store.save([locked], events, loaded)
    assert Event.objects.filter(match=match, seq__gte=20_000).count() == len(events)
