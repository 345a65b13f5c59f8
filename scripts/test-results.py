#!/usr/bin/env python3
"""Counts the tests a Swift Testing run ended, from the xUnit file it wrote itself
(`swift test --xunit-output X.xml` writes X-swift-testing.xml): "ENDED FAILED SKIPPED" on
one line, then each failed test's name on a line of its own.

run-tests.sh counts from this file when there is one: the test process writes it, so a result
line lost on the way to the console (CI once printed a passed summary and lacked result lines)
cannot lose a test. A test with several argument cases is one test, failed when any case failed.
"""
import sys
import xml.etree.ElementTree as ElementTree


def main() -> int:
    tests: dict[str, str] = {}
    for case in ElementTree.parse(sys.argv[1]).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}/{case.get('name', '')}"
        kinds = {child.tag for child in case}
        outcome = "failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds else "passed"
        # Cases of one parameterized test: a failure anywhere fails it.
        previous = tests.get(name)
        if previous is None or outcome == "failed":
            tests[name] = outcome
    outcomes = list(tests.values())
    print(len(outcomes), outcomes.count("failed"), outcomes.count("skipped"))
    for name, outcome in sorted(tests.items()):
        if outcome == "failed":
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
