#!/usr/bin/env python3
"""Opens a `pairs load --report` page from disk in headless Chromium, driven by Selenium.

Run by Tests/PairsLoadTests/ReportBrowserTests.swift with the page and the run's JSON (`--json` output of
the same run). At 390x844 (a phone) and 1280x800, in the light and the dark scheme, it checks:
- no console message at level SEVERE (errors), and no request beyond the file itself;
- every chart is drawn: its SVG has a path with at least two points and a non-empty box on screen;
- every number the page marks with data-key equals the JSON's value at that key;
- nothing is wider than the window (no sideways scrolling on a phone).

Writes report-WIDTH[-dark].png (the whole page) to OUT. Prints a line per check and "passed" at the end;
exits 1 with the reason on the first failure, never waiting longer than --seconds in all.
"""

import argparse
import json
import os
import sys
import time
import traceback

os.environ.setdefault("SE_OFFLINE", "true")  # never let Selenium look for a driver on the network

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_page import browser, emulate, say, screenshot  # noqa: E402  (exits 3 without selenium)

SIZES = [(390, 844, True), (1280, 800, False)]


class Failure(Exception):
    pass


# What the page shows, read in one script call.
READ_PAGE = """
const charts = [...document.querySelectorAll("figure.chart")].map(figure => {
  const svg = figure.querySelector("svg");
  const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  const paths = svg ? [...svg.querySelectorAll("path.line, path.bar")].map(path => {
    const d = path.getAttribute("d") || "";
    const drawn = path.getBBox();
    return {points: (d.match(/[MHVL]/g) || []).length, width: drawn.width, height: drawn.height,
            stroke: getComputedStyle(path).stroke, fill: getComputedStyle(path).fill};
  }) : [];
  return {id: figure.id, width: box.width, height: box.height, paths};
});
const numbers = [...document.querySelectorAll("[data-key]")].map(element => ({key: element.dataset.key, text: element.textContent}));
const resources = performance.getEntriesByType("resource").map(entry => entry.name);
return {charts, numbers, resources, scrollWidth: document.documentElement.scrollWidth, innerWidth,
        background: getComputedStyle(document.body).backgroundColor};
"""


def value_at(run, key):
    value = run
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise Failure(f"the page shows data-key {key!r}, which the JSON does not have")
        value = value[part]
    return value


def check_numbers(page, run):
    checked = 0
    for item in page["numbers"]:
        expected = value_at(run, item["key"])
        shown = item["text"].strip()
        if expected is None:
            continue
        if isinstance(expected, bool) or not isinstance(expected, (int, float)):
            if shown != str(expected):
                raise Failure(f"{item['key']}: the page shows {shown!r}, the JSON has {expected!r}")
        else:
            try:
                number = float(shown)
            except ValueError:
                raise Failure(f"{item['key']}: the page shows {shown!r}, not a number (the JSON has {expected})")
            if number != float(expected):
                raise Failure(f"{item['key']}: the page shows {number}, the JSON has {expected}")
        checked += 1
    for key in ("flips", "flips_per_s", "games", "latency_ms.p50", "latency_ms.p99", "errors_total", "connections.dropped"):
        if key not in [item["key"] for item in page["numbers"]]:
            raise Failure(f"the page does not show {key}")
    return checked


def check_charts(page, expect_server_cpu):
    ids = [chart["id"] for chart in page["charts"]]
    wanted = ["chart-throughput", "chart-games", "chart-latency", "chart-histogram", "chart-errors", "chart-cpu"]
    if ids != wanted:
        raise Failure(f"charts {ids}, expected {wanted}")
    for chart in page["charts"]:
        if chart["width"] < 100 or chart["height"] < 50:
            raise Failure(f"{chart['id']} is {chart['width']}x{chart['height']} on screen")
        drawn = [path for path in chart["paths"] if path["points"] >= 2 and (path["width"] > 0 or path["height"] > 0)]
        if not drawn:
            raise Failure(f"{chart['id']} has no path with points: {chart['paths']}")
        if any(path["stroke"] in ("none", "") and path["fill"] in ("none", "") for path in drawn):
            raise Failure(f"{chart['id']} has a path drawn in no colour")
    cpu = next(chart for chart in page["charts"] if chart["id"] == "chart-cpu")
    if expect_server_cpu and len(cpu["paths"]) < 2:
        raise Failure("the CPU chart has no line for the server, though --server-pid was given")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--page", required=True, help="the report, an .html file")
    parser.add_argument("--json", required=True, help="the same run's --json output")
    parser.add_argument("--out", required=True, help="directory for the screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    deadline = time.monotonic() + args.seconds
    with open(args.json) as file:
        run = json.load(file)

    driver = browser(args, (1280, 800), phone=False, console=True, flags=("--allow-file-access-from-files",))
    url = "file://" + os.path.abspath(args.page)
    try:
        backgrounds = set()
        for width, height, phone in SIZES:
            for dark in (False, True):
                if time.monotonic() > deadline:
                    raise Failure("out of time for the whole run")
                emulate(driver, (width, height), phone, dark)
                driver.get(url)
                page = driver.execute_script(READ_PAGE)
                scheme = "dark" if dark else "light"
                errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
                if errors:
                    raise Failure(f"console errors at {width}x{height} {scheme}: {errors}")
                outside = [name for name in page["resources"] if not name.startswith("file:")]
                if outside:
                    raise Failure(f"the page fetched {outside}")
                check_charts(page, run["cpu_s"]["server"] is not None)
                checked = check_numbers(page, run)
                if page["scrollWidth"] > page["innerWidth"]:
                    raise Failure(f"at {width}x{height} the page is {page['scrollWidth']} px wide: it scrolls sideways")
                backgrounds.add(page["background"])
                say(f"{width}x{height} {scheme}: no console error, 6 charts drawn, {checked} numbers equal the JSON's")
                screenshot(driver, args.out, f"report-{width}{'-dark' if dark else ''}.png")
        if len(backgrounds) != 2:
            raise Failure(f"the dark scheme has the light one's background: {backgrounds}")
        say("passed")
    except Failure as failure:
        say(f"failed: {failure}")
        sys.exit(1)
    except Exception:
        traceback.print_exc()
        sys.exit(1)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
