/**
 * Whether another X client holds an active grab of the keyboard. XTest keys then go to the grabbing client,
 * wherever the window manager put the input focus: a window of another app that grabbed the keyboard took the
 * keys aimed at gedit while _NET_ACTIVE_WINDOW and GetInputFocus both named gedit's window (test
 * e2e/security/keys-grab.test.ts). Asked without grabbing anything: GrabKeyboard on an unmapped window of our
 * own answers AlreadyGrabbed when another client holds the keyboard, else GrabNotViewable, since the X server
 * checks for a holder before it checks the window (dix/events.c GrabDevice).
 */
import type { X11 } from './connection.js';

/** GrabKeyboard's status codes (X11 protocol, GrabKeyboard reply). */
const SUCCESS = 0;
const ALREADY_GRABBED = 1;
const NOT_VIEWABLE = 3;
/** Asynchronous pointer and keyboard modes: nothing is frozen even if a grab were taken. */
const ASYNC = 1;

/** True when another client holds the keyboard, false when none does, undefined when the server did not say. */
export async function keyboardGrabbed(x: X11): Promise<boolean | undefined> {
  const client = x.client as unknown as { AllocID(): number };
  const win = client.AllocID();
  // Never mapped: a grab on it cannot be taken, only refused for the reason the server finds first.
  x.send(x.client, 'CreateWindow', win, x.root, 0, 0, 1, 1, 0, 0, 0, 0, {});
  try {
    const status = await x.request<number>('GrabKeyboard', win, 0, 0 /* CurrentTime */, ASYNC, ASYNC);
    if (status === SUCCESS) x.send(x.client, 'UngrabKeyboard', 0);
    return status === ALREADY_GRABBED ? true : status === NOT_VIEWABLE || status === SUCCESS ? false : undefined;
  } catch { return undefined; } finally {
    x.send(x.client, 'DestroyWindow', win);
  }
}
