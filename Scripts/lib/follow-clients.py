#!/usr/bin/env python3
"""Follows trips on a `transit serve` for a while, as many clients at once (Scripts/bench-follow.sh).

follow-clients.py PORT TOKENS_FILE SECONDS PAIRS RECONNECT_SECONDS

Every token of TOKENS_FILE (one a line) is followed by one client for SECONDS. For the first
PAIRS tokens a second client follows the same token but drops its connection every
RECONNECT_SECONDS and reconnects with Last-Event-ID, as a browser's EventSource does; at the
end its event ids are compared with those of the client that stayed connected: an id the
first saw that the second did not (up to the last id both could have seen) is lost.
Prints one JSON object: streams opened, refused, events by type, lost events.
"""
import http.client, json, sys, threading, time, socket

port, tokens_file, seconds, pairs, every = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
tokens = [t.strip() for t in open(tokens_file) if t.strip()]
deadline = time.time() + seconds
lock = threading.Lock()
totals = {"opened": 0, "refused": {}, "events": {}, "errors": 0}

stop = threading.Event()

class Client(threading.Thread):
    def __init__(self, token, reconnect):
        super().__init__(daemon=True)
        self.token, self.reconnect, self.ids = token, reconnect, []
        self.conn, self.dropped = None, False

    def drop(self):
        """Breaks the connection from outside (a client that loses its network)."""
        self.dropped = True
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except Exception:
            pass

    def run(self):
        last = None
        while not stop.is_set():
            self.dropped = False
            try:
                # Longer than the server's heartbeat (15 s): a read waits for the next frame.
                self.conn = conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                headers = {"Last-Event-ID": str(last)} if last is not None else {}
                conn.request("GET", "/v1/trips/%s/events" % self.token, headers=headers)
                r = conn.getresponse()
                if r.status != 200:
                    body = r.read()
                    code = (json.loads(body).get("error") or {}).get("code", str(r.status)) if body else str(r.status)
                    with lock:
                        totals["refused"][code] = totals["refused"].get(code, 0) + 1
                    return
                with lock:
                    totals["opened"] += 1
                ended = False
                while True:
                    line = r.fp.readline()
                    if not line:
                        break
                    line = line.decode().rstrip("\n")
                    if line.startswith("id: "):
                        last = int(line[4:]); self.ids.append(last)
                    elif line.startswith("data: ") and '"noWayToContinue"' in line:
                        ended = True
                    elif line.startswith("event: "):
                        event = line[7:]
                        ended = event == "arrived"
                        with lock:
                            totals["events"][event] = totals["events"].get(event, 0) + 1
                conn.close()
                if ended:
                    return  # the trip is over (arrived, or no way to continue)
                # Dropped by us, or ended by the server (a client too slow): reconnect, as
                # a browser's EventSource does.
            except Exception:
                if stop.is_set() or self.dropped:
                    continue
                with lock:
                    totals["errors"] += 1
                time.sleep(0.5)

steady = [Client(t, False) for t in tokens]
moving = [Client(t, True) for t in tokens[:pairs]]
for c in steady + moving:
    c.start()
    time.sleep(0.002)
while time.time() < deadline:
    time.sleep(min(every, max(0, deadline - time.time())))
    if time.time() < deadline:
        for c in moving:
            c.drop()
stop.set()
for c in steady + moving:
    c.drop()
for c in steady + moving:
    c.join(30)
lost = 0
for a, b in zip(steady[:pairs], moving):
    if not a.ids or not b.ids:
        continue
    top = min(max(a.ids), max(b.ids))
    lost += len({i for i in a.ids if i <= top} - set(b.ids))
totals["lost"] = lost
totals["reconnecting"] = len(moving)
totals["compared"] = sum(1 for a, b in zip(steady[:pairs], moving) if a.ids and b.ids)
print(json.dumps(totals, sort_keys=True))
