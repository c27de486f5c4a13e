#!/usr/bin/env python3
"""A reference driver for the computer-use driver protocol, written from docs/protocol.schema.json (and
docs/protocol.md where it exists) alone, in Python with the standard library only. It serves one recorded window
(a `{window, root}` fixture from test/fixtures/, default the GTK conformance harness) read-only, and proves the
spec is enough to pass the conformance kit's wire layer and the read part of its semantic layer:

    computer-use doctor --conformance --driver "python3 test/reference-driver/driver.py [FIXTURE.json]"

Framing: JSON-RPC 2.0, one JSON object per line on stdin/stdout, lines over 16 MiB dropped. Params are checked
against the schema's params of each method (unknown fields refused); requests run on their own threads, so a
long ui.settle does not hold up others and `$/cancel {id}` ends it. End of stdin ends the process.

Its hello lists exactly the methods of its table below. It implements none of the optional identity methods
(process.identify, apps.resolveLaunch, apps.terminate: docs/protocol.md, "Identity"), so it lists none of them, and
the kit's wire.identity rule passes it with a note of what the host does without them."""
import json
import os
import re
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEMA_PATH = os.path.join(ROOT, "docs", "protocol.schema.json")
DEFAULT_FIXTURE = os.path.join(ROOT, "test", "fixtures", "linux", "conformance-harness.json")
MAX_LINE_BYTES = 16 * 1024 * 1024
PROTOCOL_VERSION = "1.1.0"
APP_ERROR = -32000

out_lock = threading.Lock()


def send(message):
    # ensure_ascii: characters beyond the BMP leave as surrogate-pair escapes, valid JSON whatever the reader.
    line = json.dumps(message, ensure_ascii=True, separators=(",", ":")) + "\n"
    with out_lock:
        sys.stdout.buffer.write(line.encode("ascii"))
        sys.stdout.buffer.flush()


class RpcError(Exception):
    def __init__(self, code, message, data_code=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data_code = data_code


def app_error(data_code, message):
    return RpcError(APP_ERROR, message, data_code)


# ---- a JSON Schema subset: what docs/protocol.schema.json uses ----------------------------------------------

class Validator:
    def __init__(self, document):
        self.defs = document.get("$defs", {})

    def error(self, schema, value, path="(root)"):
        """None when value matches schema, else a sentence naming the first failing path."""
        if "$ref" in schema:
            return self.error(self.defs[schema["$ref"].split("/")[-1]], value, path)
        if "anyOf" in schema:
            if any(self.error(s, value, path) is None for s in schema["anyOf"]):
                return None
            return "%s: matches none of the allowed forms" % path
        if "const" in schema and value != schema["const"]:
            return "%s: expected %s" % (path, json.dumps(schema["const"]))
        kind = schema.get("type")
        checks = {
            "object": lambda v: isinstance(v, dict),
            "array": lambda v: isinstance(v, list),
            "string": lambda v: isinstance(v, str),
            "boolean": lambda v: isinstance(v, bool),
            "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
            "null": lambda v: v is None,
        }
        if kind in checks and not checks[kind](value):
            return "%s: expected %s" % (path, kind)
        if kind == "string":
            if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", float("inf")):
                return "%s: length out of range" % path
            if "pattern" in schema and not re.search(schema["pattern"], value):
                return "%s: does not match %s" % (path, schema["pattern"])
        if kind in ("integer", "number"):
            if value < schema.get("minimum", float("-inf")) or value > schema.get("maximum", float("inf")):
                return "%s: out of range" % path
            if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
                return "%s: out of range" % path
        if kind == "array":
            if len(value) > schema.get("maxItems", float("inf")) or len(value) < schema.get("minItems", 0):
                return "%s: wrong number of items" % path
            items = schema.get("items")
            prefix = schema.get("prefixItems")
            for i, item in enumerate(value):
                sub = prefix[i] if prefix and i < len(prefix) else items
                if isinstance(sub, dict):
                    e = self.error(sub, item, "%s/%d" % (path, i))
                    if e:
                        return e
        if kind == "object":
            props = schema.get("properties", {})
            for key in schema.get("required", []):
                if key not in value:
                    return "%s/%s: required" % (path, key)
            extra = schema.get("additionalProperties", True)
            for key, item in value.items():
                if key in props:
                    e = self.error(props[key], item, "%s/%s" % (path, key))
                elif extra is False:
                    e = "%s/%s: unknown field" % (path, key)
                elif isinstance(extra, dict):
                    e = self.error(extra, item, "%s/%s" % (path, key))
                else:
                    e = None
                if e:
                    return e
        return None


# ---- the recorded window ----------------------------------------------------------------------------------

class RecordedDesktop:
    def __init__(self, fixture):
        with open(fixture, encoding="utf-8") as f:
            data = json.load(f)
        self.window = data["window"]
        self.root = data["root"]

    def windows(self, params):
        w = self.window
        if "pid" in params and params["pid"] != w["pid"]:
            return []
        if "app" in params and params["app"].lower() != w["app"].lower():
            return []
        return [w]

    def tree(self, window_id):
        if window_id != self.window["id"]:
            raise app_error("window_not_found", "No window %s; list windows with windows.list." % window_id[:100])
        return self.root

    def find(self, params):
        root = self.tree(params["window"])
        text = params.get("text", "").lower()
        role = params.get("role")
        limit = params.get("limit", 100)
        matches = []
        scanned = [0]

        def visit(node, path):
            scanned[0] += 1
            hay = " ".join(node.get(k, "") for k in ("name", "value", "description")).lower()
            if (not role or node["role"] == role) and text in hay and len(matches) < limit:
                flat = {k: v for k, v in node.items() if k != "children"}
                matches.append({"node": flat, "path": list(path)})
            for child in node.get("children", []):
                visit(child, path + [node["id"]])

        visit(root, [])
        return {"matches": matches, "scanned": scanned[0]}


def count(node):
    return 1 + sum(count(c) for c in node.get("children", []))


class Driver:
    def __init__(self, desktop):
        self.desktop = desktop
        self.in_flight = {}
        self.lock = threading.Lock()
        self.methods = {
            "hello": self.hello,
            "apps.list": self.apps_list,
            "windows.list": lambda p, cancel: {"windows": self.desktop.windows(p)},
            "tree.snapshot": self.snapshot,
            "tree.find": lambda p, cancel: self.desktop.find(p),
            "ui.settle": self.settle,
        }

    def hello(self, params, cancel):
        return {"protocolVersion": PROTOCOL_VERSION, "methods": sorted(self.methods), "platform": "fake",
                "version": "reference-0.1", "capabilities": [], "permissions": {},
                "facts": {"driver": "reference (Python %d.%d)" % sys.version_info[:2]}}

    def apps_list(self, params, cancel):
        w = self.desktop.window
        app = {"name": w["app"], "id": "app-%d" % w["pid"], "pid": w["pid"],
               "windows": [w] if params.get("withWindows", True) else []}
        return {"apps": [app]}

    def snapshot(self, params, cancel):
        start = time.monotonic()
        root = self.desktop.tree(params["window"])
        if "scope" in params:
            found = []

            def visit(n):
                if n["id"] == params["scope"]:
                    found.append(n)
                for c in n.get("children", []):
                    visit(c)

            visit(root)
            if not found:
                raise app_error("stale_ref", "The element is gone; take a new snapshot.")
            root = found[0]
        ms = (time.monotonic() - start) * 1000
        return {"window": self.desktop.window, "root": root, "stats": {"nodes": count(root), "ms": ms, "truncated": False}}

    def settle(self, params, cancel):
        # A recording never changes: it is quiet from the start; settled once quietMs passed, unless cancelled.
        start = time.monotonic()
        wait = min(params["quietMs"], params["timeoutMs"]) / 1000
        if cancel.wait(wait):
            raise app_error("timeout", "The caller cancelled the request.")
        return {"settled": True, "events": 0, "ms": (time.monotonic() - start) * 1000}

    def serve(self, request_id, method, params):
        cancel = threading.Event()
        with self.lock:
            self.in_flight[json.dumps(request_id)] = cancel
        try:
            send({"jsonrpc": "2.0", "id": request_id, "result": self.methods[method](params, cancel)})
        except RpcError as e:
            error = {"code": e.code, "message": e.message}
            if e.data_code:
                error["data"] = {"code": e.data_code}
            send({"jsonrpc": "2.0", "id": request_id, "error": error})
        except Exception as e:  # noqa: BLE001 - a driver bug must still answer, as `internal`
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": APP_ERROR, "message": str(e)[:500], "data": {"code": "internal"}}})
        finally:
            with self.lock:
                self.in_flight.pop(json.dumps(request_id), None)

    def cancel(self, params):
        if isinstance(params, dict):
            with self.lock:
                event = self.in_flight.get(json.dumps(params.get("id")))
            if event:
                event.set()


def valid_id(i):
    return i is None or (isinstance(i, str) and len(i) <= 1024) or (isinstance(i, int) and not isinstance(i, bool))


def handle(driver, validator, schema, line):
    try:
        msg = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        return
    if not isinstance(msg, dict):
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request: not an object"}})
        return
    method = msg.get("method")
    if not isinstance(method, str):
        if "result" in msg or "error" in msg:
            return  # a response: this driver sends no requests
        rid = msg.get("id") if valid_id(msg.get("id")) else None
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32600, "message": "Invalid Request: no method"}})
        return
    if "id" not in msg:
        if method == "$/cancel":
            driver.cancel(msg.get("params"))
        return
    rid = msg["id"]
    if not valid_id(rid):
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request: bad id"}})
        return
    if msg.get("jsonrpc") != "2.0":
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32600, "message": 'Invalid Request: jsonrpc must be "2.0"'}})
        return
    # dict lookups only: names like "__proto__" or "toString" are just unknown methods here.
    if method not in driver.methods or method not in schema["methods"]:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found", "data": {"code": "unsupported"}}})
        return
    params = msg.get("params", {})
    problem = validator.error(schema["methods"][method]["params"], params)
    if problem:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "Invalid params for %s: %s" % (method, problem), "data": {"code": "invalid_params"}}})
        return
    threading.Thread(target=driver.serve, args=(rid, method, params), daemon=True).start()


def main():
    fixture = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_FIXTURE
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    driver = Driver(RecordedDesktop(fixture))
    validator = Validator(schema)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            break
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            # Over the cap: drop the rest of the line unread into memory, answer with id null, go on.
            while True:
                rest = stdin.readline(1024 * 1024)
                if not rest or rest.endswith(b"\n"):
                    break
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Line exceeds %d bytes" % MAX_LINE_BYTES}})
            continue
        if line.strip():
            handle(driver, validator, schema, line.decode("utf-8", errors="replace"))
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
