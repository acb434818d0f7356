"""Run the tests of services/compensation: python -m services.compensation.tests (plain functions, bare asserts)."""

import importlib
import pkgutil
import sys
import traceback

import services.compensation.tests as package


def main():
    failed = passed = 0
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.name.startswith("test_"):
            continue
        module = importlib.import_module(f"services.compensation.tests.{info.name}")
        for name in sorted(n for n in vars(module) if n.startswith("test_")):
            try:
                getattr(module, name)()
            except Exception:
                failed += 1
                print(f"FAIL {info.name}::{name}")
                traceback.print_exc()
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


sys.exit(main())
