#!/usr/bin/env python3
"""Writes the seed corpora of the entry-point fuzz targets (Fuzz/<Target>/seeds/).

Run from anywhere: python3 Fuzz/seeds.py (or one target's:
python3 -c 'import seeds; seeds.write_seeds("Lint", seeds.lint_seeds())' in Fuzz/). Reads the repository's examples/ and
Tests/Fixtures (conformance fixtures and cases, the seed documents' JSON
blocks) and bench/corpora (the benchmark's small corpora); each seed is laid out as the target's check reads
its input (Tests/EntryPointFuzzing). Replaces the seeds/ directories whole.
"""
import gzip
import hashlib
import json
import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE = os.path.join(ROOT, "Tests", "Fixtures", "conformance")
SEED_DOCUMENTS = os.path.join(ROOT, "Tests", "Fixtures", "seeds")
BENCH = os.path.join(ROOT, "bench", "corpora")
PROFILES = ["hotwire-ios", "turbo-ios", "hotwire-android", "turbo-android", "siesta"]  # Profile.allCases order


def read(*parts):
    with open(os.path.join(*parts), "rb") as f:
        return f.read()


def write_seeds(target, seeds):
    directory = os.path.join(ROOT, "Fuzz", target, "seeds")
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    names = set()
    for name, data in seeds:
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")[:60] or "seed"
        base, n = name, 2
        while name in names:
            name, n = f"{base}-{n}", n + 1
        names.add(name)
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    print(f"Fuzz/{target}/seeds: {len(seeds)} files, {sum(len(d) for _, d in seeds)} bytes")


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


# ---- load: [a, b] + document, or [0x80, 0] + options + NUL + document (LoadFuzzer)

def load_selector(profile, lenient=False, deep=False, base=0, query=0, cache=0, backend=False):
    a = PROFILES.index(profile) | (8 if lenient else 0) | (16 if deep else 0) | (base << 5)
    b = query | (cache << 2) | (0x40 if backend else 0)
    return bytes([a & 0x7F, b])


# Keys canonically equivalent, spelt apart: one key to JSONSerialization's
# Swift dictionaries, two to Gson's Java maps.
EQUIVALENT_KEYS = ('{"settings": {"\u212b": 1, "\u00c5": 2}, "rules": [{"patterns": ["/a"], "properties": {"caf\u00e9": 1, "cafe\u0301": 2, "K": 3}}, '
                   '{"patterns": ["a"], "properties": {"\u212a": 4, "caf\u00e9": 5}}]}').encode()


def load_seeds():
    seeds = []
    example = read(ROOT, "examples", "path-configuration.json")
    for i, p in enumerate(PROFILES):
        seeds.append((f"example-{p}", load_selector(p, lenient=i % 2 == 1, deep=i % 3 == 0, base=i % 4, query=i % 3, cache=i % 4) + example))
    seeds.append(("api-siesta-base", load_selector("siesta", base=1) + read(ROOT, "examples", "api-configuration.json")))
    seeds.append(("api-siesta-deep", load_selector("siesta", deep=True, base=2, backend=True) + read(ROOT, "examples", "api-configuration.json")))
    seeds.append(("broken", load_selector("hotwire-ios") + read(ROOT, "examples", "broken.json")))
    seeds.append(("broken-lenient", load_selector("hotwire-android", lenient=True) + read(ROOT, "examples", "broken.json")))
    seeds.append(("rules-10-android", load_selector("hotwire-android", cache=1) + read(BENCH, "rules-10.json")))
    seeds.append(("rules-10-siesta", load_selector("siesta", lenient=True, deep=True) + read(BENCH, "rules-10.json")))
    seeds.append(("equivalent-keys-ios", load_selector("hotwire-ios") + EQUIVALENT_KEYS))
    seeds.append(("equivalent-keys-android", load_selector("hotwire-android") + EQUIVALENT_KEYS))
    seeds.append(("equivalent-keys-turbo-android", load_selector("turbo-android", lenient=True) + EQUIVALENT_KEYS))
    ios = json.loads(read(CONFORMANCE, "ios.json"))
    for name, fixture in ios["fixtures"].items():
        doc = fixture.encode() if isinstance(fixture, str) else compact(fixture)
        profile = "turbo-ios" if "turbo" in name else "hotwire-ios"
        seeds.append((f"ios-{name}", load_selector(profile, lenient="invalid" in name) + doc))
    android = json.loads(read(CONFORMANCE, "android.json"))
    for group in ("fixtures", "invalid_fixtures"):
        for name, fixture in android.get(group, {}).items():
            doc = fixture.encode() if isinstance(fixture, str) else compact(fixture)
            profile = "turbo-android" if name.startswith("ta_") else "hotwire-android"
            seeds.append((f"android-{name}", load_selector(profile) + doc))
    # JSON blocks of the seed documents.
    for name in sorted(os.listdir(SEED_DOCUMENTS)):
        text = read(SEED_DOCUMENTS, name).decode("utf-8", "replace")
        for i, block in enumerate(re.findall(r"```(?:json)?\n(.*?)```", text, re.S)):
            if '"rules"' in block or '"patterns"' in block:
                seeds.append((f"doc-{name[:3]}-{i}", load_selector(PROFILES[i % 5], lenient=True) + block.encode()))
    # Raw options JSON.
    doc = read(ROOT, "examples", "path-configuration.json")
    for i, options in enumerate([
        '{"profile":"siesta","base_url":"https://api.example.com/v1/","merge":"deep","result_cache_size":0}',
        '{"profile":"turbo-ios","match_query_strings":null,"lenient":true}',
        '{"backend":"foundation"}',
        '{"profile":"hotwire-android","unknown":1}',
        '{"base_url":"https://user@example.com/"}',
        '{"result_cache_size":16777217}',
        '[1,2',
        '',
    ]):
        seeds.append((f"options-{i}", b"\x80\x00" + options.encode() + b"\x00" + doc))
    return seeds


# ---- resolve: [a, b] (+ method NUL) + URL (ResolveFuzzer)

DOCUMENTS = 3  # examples/path-configuration.json, examples/api-configuration.json, rules-100.json
FUZZED_METHOD = 12


def resolve_selector(document, profile, base=False, rules_from_code=False, method=0):
    a = document + DOCUMENTS * PROFILES.index(profile)
    b = (1 if base else 0) | (2 if rules_from_code else 0) | (method << 2)
    return bytes([a, b])


def resolve_seeds():
    seeds = []
    bench = read(BENCH, "urls-100.txt").decode().split("\n")[:6]
    android = [c["input"] for c in json.loads(read(CONFORMANCE, "android.json"))["cases"][:6]]
    ios = [c["input"] for c in json.loads(read(CONFORMANCE, "ios.json"))["cases"][:6]]
    siesta = [c["url"] for c in json.loads(read(CONFORMANCE, "siesta.json"))["pattern_cases"][:6]]
    hostile = [
        b"https://example.com/%ZZ/../a?b=%00#frag", b"\xff\xfe/new", b"/new\x00/edit", b"HTTPS://EXAMPLE.COM:443/users/1?x=1#f",
        b"//evil.com/admin", b"/users/123", b"\\users\\1", b"javascript:alert(1)", b"/caf\xc3\xa9/\xcc\x81", b"/a?",
        b"https://api.example.com/v1/volcanos/7/status", b"volcanos/7/status?x#y", b"https://u:p@API.example.com:8080/v1/knob",
        b"/" + b"a/" * 300, b"/%C3%A9?%E2%82%AC=1", b"mailto:x@example.com", b"\xed\xa0\x80/surrogate", b"/recede_historical_location",
    ]
    urls = [u.encode() for u in bench + android + ios + siesta] + hostile
    for i, url in enumerate(urls):
        document, profile = i % DOCUMENTS, PROFILES[i // DOCUMENTS % 5]
        method = i % 12
        seeds.append((f"url-{i}", resolve_selector(document, profile, base=i % 2 == 1, rules_from_code=i % 4 == 3, method=method) + url))
    for i, (method, url) in enumerate([(b"PROPFIND", b"/volcanos/1/status"), (b"po\xffst", b"/new"), (b"", b"/"), (b"GET", b"\xc0\xaf")]):
        seeds.append((f"method-{i}", resolve_selector(1, "siesta", base=True, method=FUZZED_METHOD) + method + b"\x00" + url))
    return seeds


# ---- globs: selector + glob NUL [base NUL] urls (GlobFuzzer)

def glob_input(glob, base, urls):
    fields = [glob.encode()] + ([base.encode()] if base is not None else []) + [u.encode() for u in urls]
    return bytes([0 if base is None else 1]) + b"\x00".join(fields)


def glob_seeds():
    seeds = []
    cases = [c for c in json.loads(read(CONFORMANCE, "siesta.json"))["pattern_cases"] if c["pattern_kind"] == "glob"]
    by_glob = {}
    for c in cases:
        by_glob.setdefault((c["pattern"], c["baseURL"]), []).append(c["url"])
    for i, ((glob, base), urls) in enumerate(by_glob.items()):
        seeds.append((f"siesta-{i}", glob_input(glob, base, urls[:4])))
    for i, (glob, base, urls) in enumerate([
        ("**", "https://api.example.com/v1", ["https://evil.example.com/v1/x", "/x", "https://api.example.com:443/v1/x"]),
        ("/**/knob", "https://API.example.com/", ["https://api.example.com/a/b/knob?x", "https://api.example.com/knob#frag"]),
        ("https://*.example.com/**", None, ["https://a.example.com/x", "https://evil.com/.example.com/x"]),
        ("//evil.com/**", "https://api.example.com", ["https://evil.com/x", "//evil.com/x"]),
        ("\\**/x?", "https://a.b/c%20d/", ["https://a.b/c%20d/\\y/xz"]),
        ("HTTPS://Evil.com/*", "http://localhost:8080/", ["https://evil.com/a", "http://localhost:8080/HTTPS://Evil.com/a"]),
        ("*", "https://[::1]:8443/v1", ["https://[::1]:8443/v1/x", "https://[::1]/v1/x"]),
    ]):
        seeds.append((f"derived-{i}", glob_input(glob, base, urls)))
    return seeds


# ---- loader: selector + cache section + ("\n@@@\n" + response)* (LoaderFuzzer)

SEPARATOR = b"\n@@@\n"
STATUSES = [200, 200, 200, 304, 404, 500, 301, 302, 307, 204, 206, 100, 999, 503]


def loader_selector(cache=False, raw_cache=False, raw_responses=False, profile=0, refreshes=False, small=False):
    return bytes([(1 if cache else 0) | (2 if raw_cache else 0) | (4 if raw_responses else 0) | (profile << 3)
                  | (0x20 if refreshes else 0) | (0x40 if small else 0)])


def cache_spec(flags, body, etag="", last_modified="", number=0):
    return bytes([flags, number]) + etag.encode() + b"\x00" + last_modified.encode() + b"\x00" + body


def response_spec(status, flags, body, etag="", last_modified=""):
    return bytes([STATUSES.index(status), flags]) + etag.encode() + b"\x00" + last_modified.encode() + b"\x00" + body


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def loader_seeds(url_placeholder="{url}"):
    body = read(ROOT, "examples", "path-configuration.json")
    other = read(BENCH, "rules-10.json")
    seeds = []

    def add(name, selector, cache, responses):
        seeds.append((name, selector + cache + b"".join(SEPARATOR + r for r in responses)))

    add("download-200", loader_selector(), b"", [response_spec(200, 1 | 2, body, '"v1"', "Fri, 01 Sep 2023 10:00:00 GMT")])
    add("cache-then-304", loader_selector(cache=True), cache_spec(16 | 32, body, '"v1"', "Fri, 01 Sep 2023 10:00:00 GMT"), [response_spec(304, 0, b"")])
    add("cache-then-same", loader_selector(cache=True, profile=1), cache_spec(16, body, '"v1"'), [response_spec(200, 1, body, '"v2"')])
    add("cache-then-new", loader_selector(cache=True, refreshes=True), cache_spec(0, body), [response_spec(200, 4, other), response_spec(304, 0, b"")])
    add("cache-corrupt", loader_selector(cache=True), cache_spec(4 | 8, body, number=7), [response_spec(500, 0, b"oops")])
    add("cache-truncated", loader_selector(cache=True, profile=2), cache_spec(64, body, number=20), [response_spec(404, 0, b"")])
    add("cache-not-json", loader_selector(cache=True), cache_spec(16, b"{\"rules\":[", 'W/"x"'), [response_spec(200, 16, b"[]")])
    add("redirect", loader_selector(), b"", [response_spec(301, 0, b""), response_spec(200, 1, body, '"r"')])
    add("continue", loader_selector(profile=3), b"", [response_spec(100, 32 | 128, body)])
    add("short-body", loader_selector(), b"", [response_spec(200, 8, body)])
    add("too-large", loader_selector(small=True), b"", [response_spec(200, 0, other + b" " * 200)])
    add("odd-status", loader_selector(refreshes=True), b"", [response_spec(999, 0, body), response_spec(206, 0, body), response_spec(204, 0, b"")])
    # Raw: a cache file as the loader writes it ({url} stands for the server's
    # URL, whose port changes from run to run), and real responses.
    header = (f"pathconfig-cache 1\nurl {url_placeholder}\netag \"abc\"\nbody-length {len(body)}\n"
              f"body-fnv1a64 {fnv1a64(body):016x}\n\n").encode()
    add("raw-cache", loader_selector(cache=True, raw_cache=True), header + body, [response_spec(304, 0, b"")])
    gz = gzip.compress(body, mtime=0)
    add("raw-gzip", loader_selector(raw_responses=True), b"", [
        b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\nETag: \"gz\"\r\n\r\n" % len(gz) + gz])
    add("raw-chunked", loader_selector(raw_responses=True, refreshes=True), b"", [
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n" + body[:16] + b"\r\n%x\r\n" % (len(body) - 16) + body[16:] + b"\r\n0\r\n\r\n",
        b"HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"])
    add("raw-redirect-loop", loader_selector(raw_responses=True), b"", [b"HTTP/1.1 302 Found\r\nLocation: http://example.com/\r\nContent-Length: 0\r\n\r\n"])
    add("raw-header-folding", loader_selector(raw_responses=True), b"", [
        b"HTTP/1.1 200 OK\r\nETag: \"a\"\r\n  folded\r\nLast-Modified:\r\nContent-Length: %d\r\n\r\n" % len(body) + body])
    return seeds


# ---- exchange: selector + cache section + ("\n@@@\n" + exchange)* (ExchangeFuzzer), no socket

EXCHANGE_STATUSES = [200, 200, 200, 304, 301, 302, 307, 308, 404, 500, 204, 303]
# ExchangeSpec.locations: same host, other host, http, {self}, ftp, none, upper-case host, another port
LOCATIONS = {"same": 0, "other": 1, "http": 2, "self": 3, "ftp": 4, "none": 5, "upper": 6, "port": 7}
DOWNLOAD_ERRORS = {"unavailable": 1, "transport": 2, "timeout": 3, "too-large": 4, "truncated": 5, "no-memory": 7}


def exchange_selector(cache=False, follow=False, small=False, refreshes=False, credentials=False, profile=0):
    return bytes([(1 if cache else 0) | (2 if follow else 0) | (4 if small else 0) | (8 if refreshes else 0)
                  | (16 if credentials else 0) | (profile << 5)])


def exchange_spec(status, body=b"", etag=None, last_modified=None, location="none"):
    flags = (1 if etag is not None else 0) | (2 if last_modified is not None else 0) | (LOCATIONS[location] << 2)
    return (bytes([EXCHANGE_STATUSES.index(status), flags]) + (etag or "").encode() + b"\x00"
            + (last_modified or "").encode() + b"\x00" + body)


def exchange_error(name):
    return bytes([0xF0 | DOWNLOAD_ERRORS[name]])


def exchange_seeds():
    body = read(ROOT, "examples", "path-configuration.json")
    other = read(BENCH, "rules-10.json")
    seeds = []

    def add(name, selector, cache, exchanges):
        seeds.append((name, selector + cache + b"".join(SEPARATOR + e for e in exchanges)))

    lm = "Fri, 01 Sep 2023 10:00:00 GMT"
    add("download-200", exchange_selector(), b"", [exchange_spec(200, body, '"v1"', lm)])
    add("cache-then-304", exchange_selector(cache=True), cache_spec(16 | 32, body, '"v1"', lm), [exchange_spec(304)])
    add("304-unconditional", exchange_selector(), b"", [exchange_spec(304)])
    add("cache-then-same", exchange_selector(cache=True, profile=1), cache_spec(16, body, '"v1"'), [exchange_spec(200, body, '"v2"')])
    add("cache-then-new", exchange_selector(cache=True, refreshes=True), cache_spec(0, body), [exchange_spec(200, other), exchange_spec(304)])
    add("redirect-same-host", exchange_selector(credentials=True), b"", [exchange_spec(301, location="same"), exchange_spec(200, body)])
    add("redirect-other-host-refused", exchange_selector(credentials=True), b"", [exchange_spec(302, location="other"), exchange_spec(200, body)])
    add("redirect-other-host-followed", exchange_selector(follow=True, credentials=True), b"", [exchange_spec(307, location="other"), exchange_spec(200, body)])
    add("redirect-to-http", exchange_selector(follow=True), b"", [exchange_spec(308, location="http"), exchange_spec(200, body)])
    add("redirect-loop", exchange_selector(), b"", [exchange_spec(302, location="self")] * 7)
    add("redirect-ftp", exchange_selector(), b"", [exchange_spec(303, location="ftp")])
    add("redirect-upper-port", exchange_selector(profile=2), b"", [exchange_spec(301, location="upper"), exchange_spec(302, location="port"), exchange_spec(200, other)])
    add("redirect-without-location", exchange_selector(), b"", [exchange_spec(301)])
    add("too-large", exchange_selector(small=True), b"", [exchange_spec(200, other + b" " * 600)])
    add("not-json", exchange_selector(profile=3), b"", [exchange_spec(200, b'{"rules": [')])
    add("errors-then-good", exchange_selector(refreshes=True), b"", [exchange_error("timeout"), exchange_spec(200, body)])
    for name in DOWNLOAD_ERRORS:
        add("error-" + name, exchange_selector(cache=True), cache_spec(0, body), [exchange_error(name)])
    add("etag-line-break", exchange_selector(cache=True, refreshes=True), cache_spec(16, body, '"a\nb"'), [exchange_spec(200, other, '"c\rd"'), exchange_spec(304)])
    add("status-404-500", exchange_selector(refreshes=True), b"", [exchange_spec(404), exchange_spec(500)])
    return seeds


# ---- lint: [a, b] + document (LintFuzzer)

def lint_selector(profiles=(), deep=False, query=0):
    a = sum(1 << PROFILES.index(p) for p in profiles) | (0x20 if deep else 0)
    return bytes([a, query])


LINT_CASES = [
    # One of most mistakes lint knows (Tests/pathconfigTests/ValidateLintCLITests.swift).
    ("team", b'{"settings": {}, "rules": [\n {"description": "Default", "patterns": [".*"], "properties": {"context": "default", '
             b'"pull_to_refresh_enabled": "true"}},\n {"comment": "Forms", "patterns": ["/new$"], "properties": {"context": "modal", '
             b'"presentation": "push"}},\n {"patterns": ["/reports/.*.pdf", "/archive/\\\\y"], "properties": {"view_controller": "pdf", "context": "default",}}\n]}'),
    ("overridden-catch-all", b'{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}, {"patterns": [".*"], "properties": {"context": "default"}}]}'),
    ("overridden-same", b'{"rules": [{"patterns": ["/a", "/b"], "properties": {"title": "A"}}, {"patterns": ["/b", "/a"], "methods": ["GET"], "properties": {"title": "B"}}]}'),
    ("overridden-globs", b'{"rules": [{"globs": ["/api/**"], "methods": ["POST"], "properties": {"headers": {"A": "1"}}}, {"globs": ["/api/**"], "properties": {"headers": null}}]}'),
    ("empty-pattern", b'{"rules": [{"patterns": ["/a"], "properties": {"context": "modal"}}, {"patterns": [""], "properties": {"context": "default"}}]}'),
    ("duplicates", b'{"rules": [{"patterns": ["/a"], "properties": {"context": "modal", "context": "default"}, "patterns": ["/b"]}]}'),
    ("escapes", b'{"rules": [{"patterns": ["\\ud83d\\ude00\xc3\xa9\\t.pdf$", "\\\\Q.pdf\\\\E", "(?x) a . pdf $", "[.?]json$"], "properties": {"title": 5}}]}'),
    ("nested-for-turbo-android", b'{"settings": [], "rules": [{"patterns": ["/x"], "properties": {"tabs": [{"title": "A"}]},},]}'),
]


def lint_seeds():
    seeds = []
    selections = [(), ("hotwire-ios",), ("hotwire-android", "turbo-android"), ("siesta",), tuple(PROFILES)]
    for name in ["path-configuration.json", "api-configuration.json", "broken.json"]:
        for i, profiles in enumerate(selections):
            seeds.append((f"example-{name[:-5]}-{i}", lint_selector(profiles, deep=i == 3, query=i % 3) + read(ROOT, "examples", name)))
    for i, (name, doc) in enumerate(LINT_CASES):
        seeds.append((name, lint_selector(selections[i % len(selections)], query=i % 3) + doc))
    seeds.append(("equivalent-keys", lint_selector(tuple(PROFILES)) + EQUIVALENT_KEYS))
    ios = json.loads(read(CONFORMANCE, "ios.json"))
    android = json.loads(read(CONFORMANCE, "android.json"))
    fixtures = list(ios["fixtures"].items()) + [item for g in ("fixtures", "invalid_fixtures") for item in android.get(g, {}).items()]
    for i, (name, fixture) in enumerate(fixtures):
        doc = fixture.encode() if isinstance(fixture, str) else compact(fixture)
        seeds.append((f"fixture-{name}", lint_selector(selections[i % len(selections)]) + doc))
    for name in sorted(os.listdir(SEED_DOCUMENTS)):
        text = read(SEED_DOCUMENTS, name).decode("utf-8", "replace")
        for i, block in enumerate(re.findall(r"```(?:json)?\n(.*?)```", text, re.S)):
            if block.lstrip().startswith("["):
                block = '{"rules": ' + block + "}"
            if '"rules"' in block:
                seeds.append((f"doc-{name[:3]}-{i}", lint_selector() + block.encode()))
    return seeds


MOBILE = PROFILES[:4]

PORT_CASES = [
    ("anchored", b'{"rules": [{"patterns": ["^/posts/\\d+$", "/new$"], "properties": {"context": "modal"}}]}'),
    ("query-blind", b'{"rules": [{"patterns": ["^/posts/", ".*"], "properties": {"section": "posts"}}]}'),
    ("classes", b'{"rules": [{"patterns": ["[^/]+\\.pdf$", "[a-c?]x", "\\W\\s\\D"], "properties": {"k": "v"}}]}'),
    ("lookaround", b'{"rules": [{"patterns": ["(?=/new)/n", "(?<!x)/edit\\b", "(new|EDIT)+"], "properties": {"k": "v"}}]}'),
    ("refused", b'{"rules": [{"patterns": ["(?i)x", "\\p{L}", "[[a]]"], "properties": {"k": true}}]}'),
    # Classes and quantifiers ICU and Java read differently (PortableSubsetDifferentialTests found them).
    # An app with a refusal is not compared, so the one that answered otherwise stands alone.
    ("class-range-amp", b'{"rules": [{"patterns": ["/posts/[a&-z]"], "properties": {"k": "v"}}]}'),
    ("class-operators", b'{"rules": [{"patterns": ["/[!--]x", "/x[--/]", "(?=/p)*/posts", "(?<=s+)/\\d+"], "properties": {"k": "v"}}]}'),
    ("class-posix", b'{"rules": [{"patterns": ["/posts/[:alpha:]"], "properties": {"k": "v"}}]}'),
    # One key to the iOS apps, two to the Android ones: refused between the platforms.
    ("equivalent-keys", EQUIVALENT_KEYS),
]


def port_selector(reference, apps=()):
    """The byte PortFuzzer reads: the reference's index, and the apps as bits 2 to 5."""
    selector = MOBILE.index(reference)
    for app in apps:
        selector |= 1 << (2 + MOBILE.index(app))
    return bytes([selector])


def port_seeds():
    seeds = []
    urls = b"https://example.com/posts/7\nhttps://example.com/POSTS/7?x=/new\nhttps://example.com/a/new/"
    for i, name in enumerate(["path-configuration.json", "android-path-configuration.json", "path-configuration.next.json"]):
        for j, reference in enumerate(MOBILE):
            apps = () if j % 2 == 0 else (MOBILE[(i + j) % 4],)
            seeds.append((f"example-{name[:-5]}-{j}", port_selector(reference, apps) + read(ROOT, "examples", name) + b"\0" + urls))
    for i, (name, doc) in enumerate(PORT_CASES):
        for j, reference in enumerate(MOBILE):
            seeds.append((f"{name}-{j}", port_selector(reference, () if i % 2 else (MOBILE[(i + j + 1) % 4],)) + doc + b"\0" + urls))
    ios = json.loads(read(CONFORMANCE, "ios.json"))
    android = json.loads(read(CONFORMANCE, "android.json"))
    fixtures = list(ios["fixtures"].items()) + list(android.get("fixtures", {}).items())
    for i, (name, fixture) in enumerate(fixtures):
        doc = fixture.encode() if isinstance(fixture, str) else compact(fixture)
        seeds.append((f"fixture-{name}", port_selector(MOBILE[i % 4]) + doc))
    return seeds


# ---- dialect: [odd] + pattern + (NUL + subject)*, or [even] + grammar choices (DialectInput)

DIALECT_SUBJECTS = ["/users/abc/", "/a/", "aa", "ab/", "/", ""]

DIALECT_CASES = [
    # \b and \B after a greedy loop: where the search backtracks to find a boundary.
    ("users-dot-plus-b", "/users/.+\\b", ["/users/abc/", "/users/", "/users/a"]),
    ("dot-star-b", ".*\\b", ["/a/", "/", ""]),
    ("class-plus-B", "[a-z]+\\B", ["aa", "a", "ab/"]),
    ("w-plus-B", "\\w+\\B", ["aa", "a/", "/users/abc/", "\u00e9\u00e9"]),
    ("group-dot-plus-b", "(.+)\\b", ["/a/", "/users/abc/", "//"]),
    ("dot-1-5-b", ".{1,5}\\b", ["/a/", "/abcdefg/", "//"]),
    ("alt-dot-plus-b", "a|.+\\b", ["/a/", "/", "b/"]),
    ("W-opt-B", "\\W?\\B", ["/a/", "aa", "", "//"]),
    # Repeat counts after a quantifier and odd class intersections (JDK 17's readings).
    ("a-opt-count", "a?{2}", ["a", "aa", ""]),
    ("count-count", "a{2}{3}", ["aa", "aaaaaa", "a"]),
    # [a-&&b] is an error in both dialects; the ICU translation still accepts it: Fuzz/Dialect/open/range-to-amp.
    ("x-amp-amp", "[x&&]", ["x", "&", "y"]),
    ("amp-amp-x", "[&&x]", ["x", "&"]),
    ("a-amp-amp-amp", "[a&&&]", ["a", "&", "b"]),
    ("a-star-star", "a**", ["a"]),
    ("kelvin", "k", ["K", "\u212a", "x"]),
    ("long-s", "s+", ["\u017f", "S"]),
    ("dotless-i", "[a-z]i", ["xI", "x\u0131", "x\u0130"]),
    ("inline-flags", "(?i)k(?-i)k", ["KK", "Kk", "\u212ak"]),
    ("lookbehind", "(?<=/a)/b\\b", ["/a/b", "/a/bc"]),
    # Characters above U+FFFF (two UTF-16 units in ICU and the JDK): ranges across U+FFFF, case pairs.
    ("wide-ranges", "\\b(?:[!-&\U00010000-\U0010FFFF\\s];\U00010400)i:[\U00010000-\U0010FFFF]+",
     ["x ;\U00010400i:\U0001F600", "x&;\U00010428I:\U00010400", ";\U00010428i:\U00010400"]),
    ("wide-deseret-case", "(?i)[\U00010428-\U0001042F]\U00010400", ["\U00010400\U00010428", "\U0001042F\U00010400", "\U00010430\U00010428"]),
    ("wide-adlam-case", "(?i)~[k].\U0001E922\U0001E900", ["~kx\U0001E900\U0001E922", "~K\U0001D400\U0001E922\U0001E922"]),
    # Case closures of three or more (Greek's symbol forms, Ohm, titlecase digraphs, Cherokee, the iota subscript),
    # and characters that fold to more than one.
    ("cased-greek-symbols", "(?i)[\u03d0-\u03d1]\u03f4[^\u2126]", ["\u0392\u03b8x", "\u03d1\u0398\u03c9", "\u03b2\u03f4\u03a9"]),
    ("cased-titlecase-cherokee", "(?i)\u01c5[\u13a0-\u13a1]\\x{1FBE}", ["\u01c6\uab70\u0399", "\u01c4\uab71\u0345", "d\u017e"]),
    ("cased-full-folds", "(?i)[\ufb00-\ufb06]|[^\u01f0]\u03b9", ["st", "\ufb05", "x\u1fbe", "J\u030c\u0345"]),
]


def dialect_seeds():
    import random
    seeds = []
    for name, pattern, subjects in DIALECT_CASES:
        seeds.append((name, b"\1" + pattern.encode() + b"".join(b"\0" + t.encode() for t in subjects)))
    # At the sizes the issue names: 1,490 `.`, 1,599 `k` (the Java dialect's case-insensitive `k`).
    seeds.append(("dots-1490", b"\1" + b"." * 1490 + b"\0" + b"k" * 1490 + b"\0" + b"k" * 1489 + b"\0" + b"/a/"))
    seeds.append(("k-1599", b"\1" + b"k" * 1599 + b"\0" + b"K" * 1599 + b"\0" + "\u212a".encode() * 1599 + b"\0" + b"k" * 1598))
    # The grammar (an even first byte; 0x3e: a long shape, one unit each: `.`, `k`, `[a-z]`, words), from a fixed seed
    # (bit 5 cleared in the others, so none is a long shape).
    rng = random.Random(1)
    for i in range(24):
        seeds.append((f"grammar-{i}", bytes([2 * rng.randrange(64) & 0xDE]) + bytes(rng.randrange(256) for _ in range(rng.randrange(8, 96)))))
    for i in range(4):
        seeds.append((f"long-{i}", bytes([0x3E]) + bytes([i * 4, rng.randrange(256), rng.randrange(256), rng.randrange(256)]) + bytes(rng.randrange(256) for _ in range(16))))
    # The cased grammar (bit 5 set, bit 4 cleared, so none is a long shape).
    for i in range(8):
        seeds.append((f"cased-{i}", bytes([2 * rng.randrange(64) & 0xCE | 0x20]) + bytes(rng.randrange(256) for _ in range(rng.randrange(8, 96)))))
    return seeds


if __name__ == "__main__":
    write_seeds("Load", load_seeds())
    write_seeds("Resolve", resolve_seeds())
    write_seeds("Globs", glob_seeds())
    write_seeds("Loader", loader_seeds())
    write_seeds("Exchange", exchange_seeds())
    write_seeds("Lint", lint_seeds())
    write_seeds("Port", port_seeds())
    write_seeds("Dialect", dialect_seeds())
