"""Row I/O for the match aggregate: the locked read and the write of one change.

Every service call reads one match under a row lock and writes back what it
changed. A move is the request made hundreds of times per match, and built
through the ORM its SQL cost more than the rules themselves (docs/benchmarks.md),
so the statements are written out here with :class:`nard_site.rows.RowCodec`.
Services decide *what* changes; this module only moves rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model
from django.db.models.signals import post_save

from accounts.models import User
from games.models import Event, Game, Match, Turn
from nard_site.rows import RowCodec, batch, execute_together, forget

MATCHES, USERS, GAMES, TURNS, EVENTS = (RowCodec(m) for m in (Match, User, Game, Turn, Event))
CODECS: dict[type[Model], RowCodec[Any]] = {Match: MATCHES, Game: GAMES, Turn: TURNS}


def _read_sql() -> tuple[str, str]:
    """The lock statement, and the read of match, players, game and turn after it."""
    qn = connection.ops.quote_name
    lock = (f"SELECT 1 FROM {qn(MATCHES.table)} WHERE {qn('id')} = %s"
            + (" FOR UPDATE" if connection.features.has_select_for_update else ""))
    read = (
        f"SELECT {MATCHES.select_list('m')}, {USERS.select_list('w')}, "
        f"{USERS.select_list('b')}, {USERS.select_list('i')}, {GAMES.select_list('g')}, "
        f"{TURNS.select_list('t')} FROM {qn(MATCHES.table)} m"
        f" LEFT JOIN {qn(USERS.table)} w ON w.{qn('id')} = m.{qn('white_id')}"
        f" LEFT JOIN {qn(USERS.table)} b ON b.{qn('id')} = m.{qn('black_id')}"
        f" LEFT JOIN {qn(USERS.table)} i ON i.{qn('id')} = m.{qn('invited_id')}"
        f" LEFT JOIN {qn(GAMES.table)} g ON g.{qn('id')} = m.{qn('current_game_id')}"
        f" LEFT JOIN {qn(TURNS.table)} t ON t.{qn('id')} = g.{qn('current_turn_id')}"
        f" WHERE m.{qn('id')} = %s")
    return lock, read


LOCK_SQL, READ_SQL = _read_sql()


def lock_match(match_id: int) -> Match | None:
    """Lock the match row, then read it with its players, current game and turn.

    Call inside a transaction. The read is a second statement on purpose: under
    READ COMMITTED, rows joined to a ``FOR UPDATE`` row that waited for the lock
    may be stale, while a statement issued after the lock sees what the previous
    holder committed. Both go in one round trip (:func:`batch`).
    """
    with batch(), connection.cursor() as locker, connection.cursor() as reader:
        locker.execute(LOCK_SQL, [match_id])
        reader.execute(READ_SQL, [match_id])
        row = reader.fetchone()
    return None if row is None else _aggregate(row)


def read_match(match_id: int) -> Match | None:
    """The match with its players, current game and turn, unlocked (one statement)."""
    with connection.cursor() as cursor:
        cursor.execute(READ_SQL, [match_id])
        row = cursor.fetchone()
    return None if row is None else _aggregate(row)


def _aggregate(row: Sequence[Any]) -> Match:
    match = MATCHES.load(row)
    assert match is not None
    offset = MATCHES.width
    for name in ("white", "black", "invited"):
        user = USERS.load(row, offset)
        offset += USERS.width
        if user is not None and match.white_id == user.pk and name == "black":
            user = match.white  # hotseat: one account, one object
        setattr(match, name, user)
    game = GAMES.load(row, offset)
    if game is not None:
        game.match = match
        game.current_turn = TURNS.load(row, offset + GAMES.width)
        if game.current_turn is not None:
            game.current_turn.game = game
    match.current_game = game
    return match


EVENTS_PER_STATEMENT = 1000  # 5 parameters each, far below PostgreSQL's 65,535


def save(match: Match, rows: Sequence[Model], events: Sequence[Event]) -> None:
    """Write one change: new rows are inserted, then the changed rows, the match and
    its events are written by one statement (:func:`execute_together`), so a move
    costs one round trip (a new row, whose key the others need, one more). Call
    inside the transaction that locked the match."""
    statements, updated = [], []
    try:
        with connection.cursor() as cursor:
            for row in {id(row): row for row in [*rows, match]}.values():  # each row once
                codec = CODECS[type(row)]
                if row._state.adding:
                    codec.insert(cursor, [row])
                elif (statement := codec.update_statement(row)) is not None:
                    statements.append(statement)
                    updated.append(row)
            if len(events) <= EVENTS_PER_STATEMENT:
                statements += [EVENTS.insert_statement(events)] if events else []
            else:  # a whole imported match: its events on their own
                for start in range(0, len(events), EVENTS_PER_STATEMENT):
                    chunk = events[start:start + EVENTS_PER_STATEMENT]
                    EVENTS.insert(cursor, chunk, returning=False)
            counts = execute_together(cursor, statements)
        for row, count in zip(updated, counts, strict=False):
            if count != 1:
                raise type(row).DoesNotExist(f"{type(row).__name__} {row.pk} is gone.")
    except BaseException:
        for row in updated:  # not written after all: a retry must write every column
            forget(row)
        raise


def _forget_on_save(sender: type[Model], instance: Model, **kwargs: Any) -> None:
    forget(instance)  # the ORM wrote the row: what was loaded here no longer says what is


for _model in (Match, Game, Turn):
    post_save.connect(_forget_on_save, sender=_model, dispatch_uid=f"store-forget-{_model}")
