#!/usr/bin/env python3
"""A local SMTP sink for the evaluation's mail task: it accepts every message on 127.0.0.1 and writes each one,
as received (envelope in a header line, then the DATA), to OUT_DIR/<n>.eml. It prints its port on the first line
of stdout. Nothing is relayed anywhere. Usage: smtp-sink.py OUT_DIR"""
import os
import socket
import sys
import threading


def serve(conn, out_dir, counter):
    f = conn.makefile('rb')
    send = lambda line: conn.sendall(line.encode('ascii') + b'\r\n')
    send('220 sink.localhost ESMTP eval sink')
    envelope = []
    while True:
        line = f.readline()
        if not line:
            return
        verb = line.strip().split(b' ', 1)[0].upper()
        if verb in (b'EHLO', b'HELO'):
            send('250 sink.localhost')
        elif verb in (b'MAIL', b'RCPT'):
            envelope.append(line.strip().decode('utf-8', 'replace'))
            send('250 ok')
        elif verb == b'DATA':
            send('354 end with <CRLF>.<CRLF>')
            body = []
            while True:
                chunk = f.readline()
                if not chunk or chunk in (b'.\r\n', b'.\n'):
                    break
                # Dot-stuffing (RFC 5321 4.5.2): a leading dot was doubled by the client.
                body.append(chunk[1:] if chunk.startswith(b'..') else chunk)
            with counter['lock']:
                counter['n'] += 1
                n = counter['n']
            path = os.path.join(out_dir, '%d.eml' % n)
            with open(path + '.part', 'wb') as out:
                out.write(('X-Envelope: %s\r\n' % ' | '.join(envelope)).encode('utf-8'))
                out.write(b''.join(body))
            os.rename(path + '.part', path)  # the checker never reads half a message
            envelope = []
            send('250 queued')
        elif verb == b'RSET':
            envelope = []
            send('250 ok')
        elif verb == b'QUIT':
            send('221 bye')
            return
        else:
            send('250 ok' if verb == b'NOOP' else '502 not implemented')


def main():
    out_dir = sys.argv[1]
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(('127.0.0.1', 0))
    srv.listen(4)
    print(srv.getsockname()[1], flush=True)
    counter = {'n': 0, 'lock': threading.Lock()}
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=lambda c=conn: (serve(c, out_dir, counter), c.close()), daemon=True).start()


if __name__ == '__main__':
    main()
