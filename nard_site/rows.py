"""Rows in plain SQL, built from a model's own field definitions.

For the few statements a server runs on every request, building the SQL through
the ORM costs more than running it (docs/benchmarks.md). A :class:`RowCodec`
writes a model's SELECT list, UPDATE and INSERT once, and loads and saves rows
with Django's own converters and adapters, so the model stays the only schema
and the same code runs on SQLite and PostgreSQL. :func:`batch` sends several
statements in one round trip where the driver can.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import ForeignKey, JSONField, Model

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]
Statement = tuple[str, list[Any]]
Values = list[Any]
"""A row's column values in the codec's field order, as loaded or written."""


@contextmanager
def batch() -> Iterator[None]:
    """Send the statements run inside in as few round trips as the driver allows.

    On PostgreSQL this is psycopg's pipeline mode: statements are queued and sent
    together, and a fetch (or the end of the block) waits for all of them. Errors
    surface as Django's database exceptions.
    """
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor():  # connect (and run Django's health check) outside the pipeline
        pass
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def execute_together(cursor: Any, statements: Sequence[Statement]) -> list[int]:
    """Run data-changing statements as one and return each one's row count.

    On PostgreSQL they become the parts of one ``WITH … SELECT`` (a statement with
    data-modifying ``WITH`` parts runs each part exactly once, all on one snapshot:
    fine for statements that touch different rows); elsewhere they run in turn.
    """
    if not statements:
        return []
    if connection.vendor != "postgresql":
        counts = []
        for sql, params in statements:
            cursor.execute(sql, params)
            counts.append(cursor.rowcount)
        return counts
    parts = ", ".join(f"w{i} AS ({sql} RETURNING 1)" for i, (sql, _) in enumerate(statements))
    counts_sql = ", ".join(f"(SELECT count(*) FROM w{i})" for i in range(len(statements)))
    cursor.execute(f"WITH {parts} SELECT {counts_sql}",
                   [p for _, params in statements for p in params])
    return list(cursor.fetchone())


class RowCodec(Generic[M]):
    """How one model's rows are selected, loaded, updated and inserted in plain SQL."""

    def __init__(self, model: type[M]) -> None:
        meta = model._meta
        self.model = model
        self.table = meta.db_table
        self.fields = list(meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self.pk = meta.pk
        self.foreign_keys = [f for f in self.fields if isinstance(f, ForeignKey)]
        self._qn = qn = connection.ops.quote_name
        self._columns = [qn(_column(f)) for f in self.fields]
        self._pk_column = qn(_column(self.pk))
        self._pk_index = self.fields.index(self.pk)
        self._writable = [i for i, f in enumerate(self.fields) if not f.primary_key]
        # JSON values can be changed in place, unseen by a comparison: always written.
        self._always = {i for i in self._writable if isinstance(self.fields[i], JSONField)}
        self._update_sql: dict[tuple[int, ...], str] = {}
        self._insert_head = (f"INSERT INTO {qn(self.table)} ("
                             + ", ".join(self._columns[i] for i in self._writable)
                             + ") VALUES ")
        self._insert_row = "(" + ", ".join(["%s"] * len(self._writable)) + ")"
        # Django's own converters per column (what the ORM's compiler applies).
        self._converters: list[tuple[int, Any, list[Converter]]] = []
        for index, f in enumerate(self.fields):
            col = f.get_col(self.table)
            chain = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if chain:
                self._converters.append((index, col, chain))

    def select_list(self, alias: str) -> str:
        return ", ".join(f"{alias}.{column}" for column in self._columns)

    def load(self, row: Sequence[Any], offset: int = 0) -> M | None:
        """The instance in ``row[offset:offset + width]``; ``None`` for an outer join's
        nulls."""
        loaded = self.load_with_values(row, offset)
        return None if loaded is None else loaded[0]

    def load_with_values(self, row: Sequence[Any], offset: int = 0) -> tuple[M, Values] | None:
        """The instance and the values it was built from (give them back to
        :meth:`update_statement` to write only what changed). Nothing is kept on the
        instance."""
        values = list(row[offset:offset + self.width])
        if values[self._pk_index] is None:
            return None
        for index, col, chain in self._converters:
            for convert in chain:
                values[index] = convert(values[index], col, connection)
        obj = self.model.from_db(connection.alias, self.attnames, values)
        return obj, list(values)

    def values(self, obj: M) -> Values:
        """``obj``'s column values now (what a write would store)."""
        self._sync_foreign_keys(obj)
        return self.raw_values(obj)

    def raw_values(self, obj: M) -> Values:
        """``obj``'s column values as they stand, foreign keys not refreshed."""
        return [f.pre_save(obj, False) for f in self.fields]

    def _sync_foreign_keys(self, obj: M, *, allow_unsaved: bool = False) -> None:
        """Copy saved related objects' keys into ``*_id`` (what ``Model.save`` does)."""
        for f in self.foreign_keys:
            if f.is_cached(obj):
                related = f.get_cached_value(obj)
                value = None if related is None else related.pk
                if related is not None and value is None and not allow_unsaved:
                    raise ValueError(f"{f.name} is not saved yet.")
                obj.__dict__[f.attname] = value

    def update_statement(self, obj: M, loaded: Values | None = None, *,
                         compare_json: bool = False) -> Statement | None:
        """The UPDATE of the columns that differ from ``loaded`` (the values the row
        was read or last written with; every column when not given); ``None`` when
        nothing changed. JSON values can change in place, unseen by a comparison, so
        they are always written unless ``compare_json`` (``loaded`` was taken from
        this very object just now). Pure: nothing is remembered."""
        values = self.values(obj)
        always = () if compare_json else self._always
        changed = tuple(i for i in self._writable
                        if loaded is None or i in always or values[i] != loaded[i])
        if not changed:
            return None
        sql = self._update_sql.get(changed)
        if sql is None:
            sql = self._update_sql[changed] = (
                f"UPDATE {self._qn(self.table)} SET "
                + ", ".join(f"{self._columns[i]} = %s" for i in changed)
                + f" WHERE {self._pk_column} = %s")
        return sql, [*(self.fields[i].get_db_prep_save(values[i], connection)
                       for i in changed), obj.pk]

    def insert_statement(self, objs: Sequence[M]) -> Statement:
        """The INSERT of ``objs``. A foreign key to a row not saved yet is written as
        NULL (its ``*_id`` stays unset): write the row again once the other is in."""
        params = []
        for obj in objs:
            self._sync_foreign_keys(obj, allow_unsaved=True)
            params += [self.fields[i].get_db_prep_save(self.fields[i].pre_save(obj, True),
                                                       connection) for i in self._writable]
        return self._insert_head + ", ".join([self._insert_row] * len(objs)), params

    def insert(self, cursor: Any, objs: Sequence[M], *, returning: bool = True) -> None:
        """Insert rows; with ``returning``, their primary keys are filled in (SQLite and
        PostgreSQL both return them)."""
        if not objs:
            return
        sql, params = self.insert_statement(objs)
        if not returning:
            cursor.execute(sql, params)
            return
        cursor.execute(f"{sql} RETURNING {self._pk_column}", params)
        for obj, (pk,) in zip(objs, cursor.fetchall(), strict=True):
            obj.pk = pk
            obj._state.adding, obj._state.db = False, connection.alias


def _column(field: Any) -> str:
    """A concrete field's column name (always set once the model is ready)."""
    column = field.column
    assert isinstance(column, str), field
    return column
