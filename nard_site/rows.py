"""Rows in plain SQL, built from a model's own field definitions.

For the few statements a server runs on every request, building the SQL through
the ORM costs more than running it (docs/benchmarks.md). A :class:`RowCodec`
writes a model's SELECT list, UPDATE and INSERT once, and loads and saves rows
with Django's own converters and adapters, so the model stays the only schema
and the same code runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import ForeignKey, Model

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


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
        qn = connection.ops.quote_name
        self._columns = [qn(f.column) for f in self.fields]
        self._pk_index = self.fields.index(self.pk)
        non_pk = [f for f in self.fields if not f.primary_key]
        self._update_fields = non_pk
        self.update_sql = (f"UPDATE {qn(self.table)} SET "
                           + ", ".join(f"{qn(f.column)} = %s" for f in non_pk)
                           + f" WHERE {qn(self.pk.column)} = %s")
        self._insert_fields = non_pk
        self._insert_head = (f"INSERT INTO {qn(self.table)} ("
                             + ", ".join(qn(f.column) for f in non_pk) + ") VALUES ")
        self._insert_row = "(" + ", ".join(["%s"] * len(non_pk)) + ")"

    def select_list(self, alias: str) -> str:
        return ", ".join(f"{alias}.{column}" for column in self._columns)

    @cache  # noqa: B019 -- one codec per model for the life of the process
    def _converters(self, vendor: str) -> list[tuple[int, Any, list[Converter]]]:
        """Django's own converters per column (what the ORM's compiler applies)."""
        del vendor  # the cache key: converters depend on the database backend only
        found = []
        for index, f in enumerate(self.fields):
            col = f.get_col(self.table)
            chain = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if chain:
                found.append((index, col, chain))
        return found

    def load(self, row: Sequence[Any], offset: int = 0) -> M | None:
        """The instance in ``row[offset:offset + width]``; ``None`` for an outer join's nulls."""
        values = list(row[offset:offset + self.width])
        if values[self._pk_index] is None:
            return None
        for index, col, chain in self._converters(connection.vendor):
            for convert in chain:
                values[index] = convert(values[index], col, connection)
        return self.model.from_db(connection.alias, self.attnames, values)

    def _sync_foreign_keys(self, obj: M) -> None:
        """Copy saved related objects' keys into ``*_id`` (what ``Model.save`` does)."""
        for f in self.foreign_keys:
            if f.is_cached(obj):
                related = f.get_cached_value(obj)
                value = None if related is None else related.pk
                if related is not None and value is None:
                    raise ValueError(f"{f.name} is not saved yet.")
                setattr(obj, f.attname, value)

    def _params(self, obj: M, fields: Iterable[Any], add: bool) -> list[Any]:
        return [f.get_db_prep_save(f.pre_save(obj, add), connection) for f in fields]

    def update(self, cursor: Any, obj: M) -> None:
        self._sync_foreign_keys(obj)
        cursor.execute(self.update_sql,
                       [*self._params(obj, self._update_fields, False), obj.pk])
        if cursor.rowcount != 1:
            raise self.model.DoesNotExist(f"{self.model.__name__} {obj.pk} is gone.")

    def insert(self, cursor: Any, objs: Sequence[M], *, returning: bool = True) -> None:
        """Insert rows; with ``returning``, their primary keys are filled in."""
        if not objs:
            return
        for obj in objs:
            self._sync_foreign_keys(obj)
        sql = self._insert_head + ", ".join([self._insert_row] * len(objs))
        params = [p for obj in objs for p in self._params(obj, self._insert_fields, True)]
        qn = connection.ops.quote_name
        if not returning:
            cursor.execute(sql, params)
        elif connection.features.can_return_rows_from_bulk_insert:
            cursor.execute(f"{sql} RETURNING {qn(self.pk.column)}", params)
            for obj, (pk,) in zip(objs, cursor.fetchall(), strict=True):
                obj.pk = pk
                obj._state.adding, obj._state.db = False, connection.alias
        else:  # pragma: no cover -- every supported backend returns rows
            for obj in objs:
                obj.save(force_insert=True)
