"""Model rows read by hand-written SQL on the hottest paths (the access to a sheet, the
lock of a write, the deal rows, the sheet's state on the page's 2-second poll), turned
into what the ORM would give. New rows are stored through the ORM.

Compiling a query is most of what the ORM costs on these paths: about ten times the
time SQLite takes to run it. ``Columns`` writes a model's select list once and turns
each row's share back into values or a model instance with the same converters the
ORM applies (JSON decoded, datetimes made aware, UUIDs), through ``Model.from_db``, so
an instance read here equals one read by the ORM, field by field
(``tests/base/test_sqlrows.py`` checks it on SQLite and PostgreSQL).
"""

from django.db import connection, connections


class Columns:
    """The ``fields`` of ``model`` (attribute names; default: all concrete fields)
    selected under the table alias ``alias``.

    ``sql``: the select list (quoted, comma separated); ``width``: its number of
    columns. ``values(row, start)``: the converted values of ``row[start:start +
    width]`` in ``fields`` order (``values_of(rows, start)``: of each row); ``instance(row, start)``: the model instance (all
    fields only). A foreign key is named by its attribute (``club_id``)."""

    def __init__(self, model, alias: str, fields: tuple[str, ...] | None = None):
        by_name = {f.attname: f for f in model._meta.concrete_fields}
        self.model = model
        self.alias = alias
        self.fields = [by_name[name] for name in fields] if fields else list(by_name.values())
        self.names = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self.whole = not fields
        self._converters: dict[str, list] = {}

    @property
    def sql(self) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{quote(self.alias)}.{quote(f.column)}" for f in self.fields)

    def _for_connection(self) -> list:
        """Per field with converters, its place, its converters and the expression they
        are given (as the ORM's compiler calls them), made once per database vendor."""
        vendor = connection.vendor
        if vendor not in self._converters:
            made = []
            for place, field in enumerate(self.fields):
                column = field.get_col(self.alias)
                found = connection.ops.get_db_converters(column)
                found += column.get_db_converters(connection)
                if found:
                    made.append((place, found, column))
            self._converters[vendor] = made
        return self._converters[vendor]

    def values(self, row, start: int = 0) -> list:
        return self.values_of([row], start)[0]

    def values_of(self, rows, start: int = 0) -> list[list]:
        """``values`` of each of ``rows``."""
        converting = self._for_connection()
        database = connections[connection.alias]  # not the proxy: read once
        end = start + self.width
        out = []
        for row in rows:
            values = list(row[start:end])
            for place, converters, column in converting:
                value = values[place]
                for convert in converters:
                    value = convert(value, column, database)
                values[place] = value
            out.append(values)
        return out

    def instance(self, row, start: int = 0):
        if not self.whole:
            raise TypeError("an instance needs all of the model's fields")
        return self.model.from_db(connection.alias, self.names, self.values(row, start))


def table(model) -> str:
    """The quoted table name of ``model``."""
    return connection.ops.quote_name(model._meta.db_table)


def fetch(sql: str, params: list) -> list[tuple]:
    """The rows of ``sql`` run with ``params`` (Django's ``%s`` placeholders)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
