#!/usr/bin/env python3
"""The trip planner page in a real browser: headless Chromium (Debian's `chromium` with
`chromium-driver`) driven by Selenium, against the page served by the real server on a
real feed (Scripts/browser-test.sh starts both).

In English and in Chinese: type two stop names with a typo, pick a suggestion (by mouse,
then by keyboard), plan, and check that the steps listed are the legs drawn, in the same
order; that the start pin is green and the destination pin red; that selecting step 2
highlights leg 2 (and a leg on the map selects its step); that the browser logged no error.
Then a deep link opens with the plan shown and nothing typed; back and forward replay the
address; a place outside the coverage gets the API's refusal; axe-core (in the same
browser) finds no serious or critical violation. Prints the page's load time and the time
from the API's answer to the plan on screen (figures for the README, not judged here: the
machines are shared).

    test_page.py --url http://127.0.0.1:PORT [--screenshots DIR] [--from-typo …] …
"""
import argparse
import json
import re
import statistics
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import WebDriverWait

CHINESE = re.compile(r"[\u4e00-\u9fff]")
failures = []


def check(condition, what):
    print(("  ok    " if condition else "  FAIL  ") + what, flush=True)
    if not condition:
        failures.append(what)


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={width},{height}",
              "--lang=en-US", "--hide-scrollbars"]:
        options.add_argument(a)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    d.set_page_load_timeout(30)
    return d


def wait(d, condition, seconds=20, what="the page"):
    try:
        return WebDriverWait(d, seconds).until(condition)
    except Exception:
        raise AssertionError(f"timed out waiting for {what}")


def ready(d):
    wait(d, lambda d: d.execute_script("return !!(window.tripPage && window.tripPage.ready)"), what="the page to start")


def console_errors(d):
    return [e for e in d.get_log("browser") if e["level"] == "SEVERE"]


def type_and_pick(d, field, text, expect, keyboard):
    """Types `text` into #field, waits for a suggestion containing `expect`, picks it."""
    box = d.find_element(By.ID, field)
    box.clear()
    box.send_keys(text)
    wait(d, lambda d: any(expect.lower() in li.text.lower() for li in d.find_elements(By.CSS_SELECTOR, f"#{field}-list li.suggestion")),
         what=f"a suggestion {expect!r} for {text!r}")
    items = d.find_elements(By.CSS_SELECTOR, f"#{field}-list li.suggestion")
    index = next(i for i, li in enumerate(items) if expect.lower() in li.text.lower())
    if keyboard:
        for _ in range(index):
            box.send_keys(Keys.ARROW_DOWN)
        box.send_keys(Keys.ENTER)
    else:
        items[index].click()
    place = d.execute_script(f"return document.getElementById('{field}').value")
    check(expect.lower() in place.lower(), f"{field}: {text!r} picked as {place!r}")


def set_time(d, iso):
    d.execute_script("document.getElementById('date').value = arguments[0]; document.getElementById('time').value = arguments[1];",
                     iso[:10], iso[11:16])


def plan_shown(d):
    wait(d, lambda d: d.execute_script(
        "const r = document.getElementById('results'); return !r.hidden && document.querySelectorAll('#steps .step').length > 0"),
        what="the plan")


def trip_checks(d, label, language):
    """Steps == legs on the map, same order; pins; step 2 <-> leg 2; no console errors."""
    answer = d.execute_script("const s = window.tripPage.state; return {option: s.option, legs: s.answer.itineraries[s.option].legs.length,"
                              " lines: s.answer.itineraries[s.option].map.features.filter(f => f.properties.role === 'leg').length}")
    steps = d.find_elements(By.CSS_SELECTOR, "#steps .step")
    paths = d.find_elements(By.CSS_SELECTOR, "#map path.leg")
    check(len(steps) == answer["legs"], f"{label}: {len(steps)} steps listed for the answer's {answer['legs']} legs")
    check(len(paths) == len(steps), f"{label}: {len(paths)} legs drawn on the map for {len(steps)} steps")
    step_order = [int(s.get_attribute("data-leg")) for s in steps]
    path_order = [int(p.get_attribute("data-leg")) for p in paths]
    check(step_order == list(range(len(steps))) and sorted(path_order) == step_order,
          f"{label}: steps {step_order} and map legs {sorted(path_order)} in the same order")
    # Each step's colour swatch is its leg's line colour on the map.
    for s, i in zip(steps, step_order):
        path = d.find_element(By.CSS_SELECTOR, f"#map path.leg-{i}")
        stroke = path.get_attribute("stroke").lower()
        badge = d.execute_script("return getComputedStyle(arguments[0].querySelector('.n')).backgroundColor", s)
        r, g, b = (int(x) for x in re.findall(r"\d+", badge)[:3])
        check(stroke == f"#{r:02x}{g:02x}{b:02x}", f"{label}: step {i + 1}'s number in its leg's colour ({stroke})")
    start = d.find_elements(By.CSS_SELECTOR, "#map path.pin-start")
    end = d.find_elements(By.CSS_SELECTOR, "#map path.pin-destination")
    check(len(start) == 1 and start[0].get_attribute("fill").upper() == "#2E7D32", f"{label}: the start pin is green")
    check(len(end) == 1 and end[0].get_attribute("fill").upper() == "#C62828", f"{label}: the destination pin is red")
    if language == "zh-Hans":
        check(all(CHINESE.search(s.text) for s in steps), f"{label}: every step reads in Chinese")
        headers = [th.text for th in d.find_elements(By.CSS_SELECTOR, "#alternatives th")]
        check(all(CHINESE.search(h) for h in headers[1:]), f"{label}: the table's headings read in Chinese ({headers})")
    else:
        check(not any(CHINESE.search(s.text) for s in steps), f"{label}: the steps read in English")
    if len(steps) >= 2:
        steps[1].click()
        selected = d.find_elements(By.CSS_SELECTOR, "#map path.leg-selected")
        check(len(selected) == 1 and selected[0].get_attribute("data-leg") == "1", f"{label}: selecting step 2 highlights leg 2")
        check(steps[1].get_attribute("aria-current") == "step", f"{label}: step 2 is marked current")
        last = len(steps) - 1
        path = d.find_element(By.CSS_SELECTOR, f"#map path.leg-{last}")
        d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: 1, clientY: 1}))", path)
        check(steps[last].get_attribute("aria-current") == "step", f"{label}: selecting leg {last + 1} on the map marks step {last + 1}")
    errors = console_errors(d)
    check(not errors, f"{label}: no console errors {[e['message'] for e in errors]}")


def typed_trip(d, url, language, args):
    d.get(f"{url}/?lang={language}")
    ready(d)
    type_and_pick(d, "from", args.from_typo, args.from_expect, keyboard=False)
    type_and_pick(d, "to", args.to_typo, args.to_expect, keyboard=True)
    set_time(d, args.time)
    d.find_element(By.ID, "plan").click()
    plan_shown(d)
    trip_checks(d, f"typed ({language})", language)


def deep_link(d, url, args):
    link = f"{url}/?from={args.deep_from}&to={args.deep_to}&time={args.time}&lang=en"
    d.get(link)
    ready(d)
    plan_shown(d)
    typed = d.execute_script("return [document.getElementById('from').value, document.getElementById('to').value]")
    check(all(typed), f"deep link: the plan is shown with nothing typed (fields {typed})")
    trip_checks(d, "deep link", "en")
    first = d.current_url
    # A second plan from the form, then back: the first again; forward: the second.
    d.execute_script("document.getElementById('kind').value = 'arrive'")
    d.find_element(By.ID, "plan").click()
    wait(d, lambda d: d.current_url != first and "arriveBy=true" in d.current_url, what="the address to change")
    plan_shown(d)
    second = d.current_url
    d.back()
    wait(d, lambda d: d.execute_script("return document.getElementById('kind').value") == "leave", what="back to the first plan")
    plan_shown(d)
    check("arriveBy" not in d.current_url, "back: the first plan's address and form")
    d.forward()
    wait(d, lambda d: d.execute_script("return document.getElementById('kind').value") == "arrive", what="forward to the second")
    check(d.current_url == second, "forward: the second plan again")


def deep_link_names(d, url, args):
    """A link with names (as another app may write them, typo included) and with coordinates."""
    d.get(f"{url}/?from={urllib.parse.quote(args.from_typo)}&to={urllib.parse.quote(args.to_expect)}&time={args.time}&lang=en")
    ready(d)
    plan_shown(d)
    fields = d.execute_script("return [document.getElementById('from').value, document.getElementById('to').value]")
    check(fields == [args.from_expect, args.to_expect], f"deep link by names: planned from {fields}")
    d.get(f"{url}/?from={args.from_point}&to={args.deep_to}&time={args.time}&lang=en")
    ready(d)
    plan_shown(d)
    first = d.execute_script("return window.tripPage.state.answer.itineraries[window.tripPage.state.option].legs[0].mode")
    check(first == "WALK", f"deep link by coordinates: the trip starts with a walk ({first})")


def refusal(d, url, args):
    d.get(f"{url}/?from={args.deep_from}&to=48.8566,2.3522&time={args.time}&lang=zh-Hans")
    ready(d)
    wait(d, lambda d: d.find_element(By.ID, "error").is_displayed(), what="the refusal")
    text = d.find_element(By.ID, "error").text
    check(bool(CHINESE.search(text)) and "(" in text, f"outside the coverage: the API's refusal naming the nearest region ({text[:80]}…)")
    check(d.find_element(By.ID, "error").get_attribute("role") == "alert", "the refusal is announced (role=alert)")


def accessibility(d, url, args):
    from axe_selenium_python import Axe
    found = []
    for language in ["en", "zh-Hans"]:
        d.get(f"{url}/?from={args.deep_from}&to={args.deep_to}&time={args.time}&lang={language}")
        ready(d)
        plan_shown(d)
        axe = Axe(d)
        axe.inject()
        result = axe.run(options={"resultTypes": ["violations"]})
        serious = [v for v in result["violations"] if v.get("impact") in ("serious", "critical")]
        for v in result["violations"]:
            print(f"        axe ({language}): {v['impact']}: {v['id']}: {v['help']} ({len(v['nodes'])} nodes)")
        found += serious
        check(not serious, f"axe-core ({language}): no serious or critical violations")
    return found


def timings(url, args, runs=5):
    """Load (navigation start to load event) and plan (API answer to painted) times, medians."""
    loads, renders, bytes_ = [], [], []
    for _ in range(runs):
        d = browser(1280, 800)
        try:
            d.get(f"{url}/?from={args.deep_from}&to={args.deep_to}&time={args.time}&lang=en")
            ready(d)
            plan_shown(d)
            wait(d, lambda d: d.execute_script("return window.tripPage.timings.length > 0"), what="the timing")
            nav = d.execute_script("const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime")
            loads.append(nav)
            renders.append(d.execute_script("return window.tripPage.timings[0].renderMs"))
            bytes_.append(d.execute_script("return performance.getEntriesByType('resource').filter(r => r.name.includes('/page/'))"
                                           ".reduce((a, r) => a + r.decodedBodySize, 0) + performance.getEntriesByType('navigation')[0].decodedBodySize"))
        finally:
            d.quit()
    print(f"  page load: median {statistics.median(loads):.0f} ms (of {runs}: {', '.join(f'{x:.0f}' for x in loads)})")
    print(f"  plan on screen after the API's answer: median {statistics.median(renders):.1f} ms (of {runs})")
    print(f"  the page's own files: {max(bytes_) / 1024:.1f} KB (Leaflet apart)")


def screenshots(url, args, directory):
    for name, (w, h) in {"desktop": (1280, 800), "phone": (390, 844)}.items():
        for language in ["en", "zh-Hans"]:
            d = browser(w, h)
            try:
                d.get(f"{url}/?from={args.deep_from}&to={args.deep_to}&time={args.time}&lang={language}")
                ready(d)
                plan_shown(d)
                time.sleep(1.5)  # the map's fit and the network's lines in view
                if name == "desktop":
                    # The table and the steps beside the map (the form is above them).
                    d.execute_script("document.getElementById('results').scrollIntoView()")
                    time.sleep(0.3)
                if name == "phone":
                    for _ in range(2):  # the whole page, the map at its foot
                        height = d.execute_script("return document.documentElement.scrollHeight")
                        d.set_window_size(w, min(max(h, height), 2600))
                        time.sleep(0.7)
                path = f"{directory}/page-{name}-{language}.png"
                d.save_screenshot(path)
                print(f"  screenshot {path}")
            finally:
                d.quit()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--from-typo", default="downtwn berkely")
    p.add_argument("--from-expect", default="Downtown Berkeley")
    p.add_argument("--to-typo", default="dublin pleasonton")
    p.add_argument("--to-expect", default="Dublin/Pleasanton")
    p.add_argument("--deep-from", default="stop:DBRK")
    p.add_argument("--deep-to", default="stop:DUBL")
    p.add_argument("--from-point", default="37.8716,-122.2727")
    p.add_argument("--time", default="2018-06-05T10:00")
    p.add_argument("--screenshots")
    p.add_argument("--timings", type=int, default=0, help="measure the load and plan times over N runs")
    args = p.parse_args()
    url = args.url.rstrip("/")
    # A server just started works out its coverage regions after loading: the page then
    # waits for them (it asks /v1/health); the tests start once they are there.
    for _ in range(300):
        with urllib.request.urlopen(f"{url}/v1/health") as r:
            if json.load(r).get("timetable", {}).get("coverage") != "building":
                break
        time.sleep(1)
    with urllib.request.urlopen(f"{url}/") as r:
        check(r.status == 200 and "text/html" in r.headers["Content-Type"], "the server serves the page at /")
    d = browser(1280, 800)
    try:
        for language in ["en", "zh-Hans"]:
            typed_trip(d, url, language, args)
        deep_link(d, url, args)
        deep_link_names(d, url, args)
        refusal(d, url, args)
        accessibility(d, url, args)
    finally:
        d.quit()
    if args.timings:
        timings(url, args, args.timings)
    if args.screenshots:
        screenshots(url, args, args.screenshots)
    if failures:
        print(f"browser tests: {len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print("browser tests: all passed")


if __name__ == "__main__":
    main()
