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
        match, _roll = services.match_roll(match_id=match.pk, user=user)
        if match.current_game.phase == "move":
            break
    return user, match


def test_lock_match_loads_what_the_orm_loads(active: tuple[Any, Match]) -> None:
    _user, match = active
    with transaction.atomic():
        locked = store.lock_match(match.pk)
    assert locked is not None
    orm = Match.objects.get(pk=match.pk)
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
        locked = store.lock_match(match.pk)
        assert locked is not None
        game = locked.current_game
        game.dice_left.append(99)  # an in-place change of a JSON value is not missed
        locked.version += 1
        with CaptureQueriesContext(connection) as queries:
            store.save(locked, [game], [])
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    game_sql = re.search(r'UPDATE "games_game" SET (.*?) WHERE', sql).group(1)
    match_sql = re.search(r'UPDATE "games_match" SET (.*?) WHERE', sql).group(1)
    assert '"version"' in match_sql and '"score_white"' not in match_sql
    assert '"dice_left"' in game_sql and '"points"' in game_sql  # JSON: always written
    assert '"off_white"' not in game_sql and '"turns"' not in game_sql
    assert Game.objects.get(pk=game.pk).dice_left[-1] == 99
    assert Match.objects.get(pk=match.pk).version == match.version + 1


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
        locked = store.lock_match(match.pk)
        assert locked is not None
        Game.objects.filter(pk=locked.current_game_id).update(current_turn=None)
        Turn.objects.filter(pk=locked.current_game.current_turn_id).delete()
        with pytest.raises(Turn.DoesNotExist):
            store.save(locked, [locked.current_game.current_turn], [])


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
        assert store.lock_match(match.pk) is not None


def test_token_authentication_reads_token_and_user(make_user: Any) -> None:
    user = make_user()
    key = token_obtain(user=user).key
    found, token = TokenAuthentication().authenticate_credentials(key)
    assert found.pk == user.pk and _fields(found) == _fields(type(user).objects.get(pk=user.pk))
    assert token.key == key and token.user is found


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


def test_turn_state_is_reused_only_while_it_matches(active: tuple[Any, Match]) -> None:
    _user, match = active
    game = Game.objects.get(pk=match.current_game_id)
    state = game.turn_state()
    assert state is not None
    game.keep_turn_state(state)
    assert game.turn_state() is state
    game.head_left = 0 if state.head_left else 1
    assert game.turn_state() is not state and game.turn_state() != state


def test_read_match_is_the_locked_read_without_the_lock(active: tuple[Any, Match]) -> None:
    _user, match = active
    with transaction.atomic():
        locked = store.lock_match(match.pk)
    read = store.read_match(match.pk)
    assert read is not None and locked is not None
    for mine, theirs in ((read, locked), (read.current_game, locked.current_game),
                         (read.current_game.current_turn, locked.current_game.current_turn),
                         (read.white, locked.white)):
        assert _fields(mine) == _fields(theirs)
    assert store.read_match(987654) is None


def test_a_save_that_failed_is_written_whole_by_the_next(active: tuple[Any, Match]) -> None:
    _user, match = active
    taken = Event.objects.filter(match=match).order_by("seq").first()
    assert taken is not None
    with transaction.atomic():
        locked = store.lock_match(match.pk)
        assert locked is not None
        locked.version += 1
        clash = Event(match=locked, seq=taken.seq, type="test", at=taken.at, data={})
        with pytest.raises(IntegrityError), transaction.atomic():
            store.save(locked, [], [clash])  # rolled back with its savepoint
        store.save(locked, [locked.current_game, locked.current_game], [])  # once each
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_an_orm_save_in_between_is_not_undone(active: tuple[Any, Match]) -> None:
    _user, match = active
    with transaction.atomic():
        locked = store.lock_match(match.pk)
        assert locked is not None
        locked.length = 5
        locked.save()  # through the ORM
        locked.length = 3  # back to what was loaded: still a change to write
        store.save(locked, [], [])
    assert Match.objects.get(pk=match.pk).length == 3


def test_many_events_are_written_in_chunks(active: tuple[Any, Match]) -> None:
    _user, match = active
    events = [Event(match=match, seq=20_000 + i, type="test", at=match.created_at, data={})
              for i in range(store.EVENTS_PER_STATEMENT + 5)]
    with transaction.atomic():
        locked = store.lock_match(match.pk)
        assert locked is not None
        store.save(locked, [], events)
    assert Event.objects.filter(match=match, seq__gte=20_000).count() == len(events)
