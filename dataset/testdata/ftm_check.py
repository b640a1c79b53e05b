"""Checks FollowTheMoney entities (JSON lines on stdin) with the
followthemoney package: each line's schema exists, each property belongs
to it, and each value is valid for its property's type. Prints one line a
problem, with the line number, and exits 1 when there is any; else prints
how many entities it checked, by schema."""
import collections
import json
import sys

from followthemoney import model

problems = []
schemata = collections.Counter()
for number, line in enumerate(sys.stdin, 1):
    data = json.loads(line)
    schema = model.get(data.get("schema", ""))
    if schema is None:
        problems.append(f"{number}: no schema {data.get('schema')!r}")
        continue
    schemata[schema.name] += 1
    try:
        proxy = model.get_proxy(data, cleaned=False)
    except Exception as err:  # the proxy refuses the entity
        problems.append(f"{number}: {err}")
        continue
    for name, values in data.get("properties", {}).items():
        prop = schema.properties.get(name)
        if prop is None:
            problems.append(f"{number}: {schema.name} has no property {name!r}")
            continue
        for value in values:
            if prop.type.clean(value, proxy=proxy) is None:
                problems.append(f"{number}: {schema.name}.{name} {value!r} is not a valid {prop.type.name}")
for p in problems:
    print(p)
print(json.dumps(dict(sorted(schemata.items()))))
sys.exit(1 if problems else 0)
