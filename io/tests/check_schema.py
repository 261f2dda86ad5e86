#!/usr/bin/env python3
"""The scene files that dem-run accepts validate against io/scene.schema.json, and the bad one fails
at the same JSON path as the loader reports. Skips (exit 77) without the jsonschema module."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("jsonschema not available (Debian: python3-jsonschema); skipped")
    sys.exit(77)

schema_path, bad, *good = sys.argv[1:]
schema = json.load(open(schema_path))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failed = False
for path in good:
    errors = list(validator.iter_errors(json.load(open(path))))
    for e in errors:
        print(f"{path}: {'.'.join(map(str, e.absolute_path))}: {e.message}")
    failed |= bool(errors)
errors = list(validator.iter_errors(json.load(open(bad))))
paths = {".".join(map(str, e.absolute_path)) for e in errors}
if "particles.1.radius" not in paths:
    print(f"{bad}: expected a schema error at particles.1.radius, got {paths}")
    failed = True
print("schema check", "FAILED" if failed else "passed", f"({len(good)} valid scenes, 1 invalid)")
sys.exit(1 if failed else 0)
