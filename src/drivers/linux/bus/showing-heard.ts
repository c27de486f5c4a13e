/**
 * What the app's last "showing" event said of an object. GTK 2's items of an open popup menu (lxtask's View menu)
 * read without the showing state while the menu is up, though the app sent state-changed:showing 1 for each item
 * when it opened (and 0 when it closed): the read cut the items as hidden, and neither observe nor the click's
 * receipt saw the open menu. A visible object whose last showing event said 1 reads as showing.
 */

/** The AT-SPI roles of a popup menu's entries. */
const MENU_ENTRY_ROLES: ReadonlySet<string> = new Set([
  'menu item', 'check menu item', 'radio menu item', 'tearoff menu item', 'menu', 'separator',
]);

/** Objects remembered at most (the oldest is forgotten first). */
const MAX_HEARD = 4000;

export class ShowingHeard {
  private readonly said = new Map<string, boolean>();

  /** The app said `handle` now shows (`on`) or no longer does. */
  note(handle: string, on: boolean): void {
    this.said.delete(handle);
    this.said.set(handle, on);
    if (this.said.size > MAX_HEARD) this.said.delete(this.said.keys().next().value!);
  }

  /**
   * Adds "showing" to the states read of `handle`, a menu's entry (`atspiRole`), when the app last said it shows and
   * it reads visible. Only menu entries: a list's rows scrolled out of view were said to show once when created
   * (act-lab's rebuilt list read 20 rows off screen as shown, e2e act/actionability).
   */
  apply(handle: string, states: Set<string>, atspiRole: string): void {
    if (!MENU_ENTRY_ROLES.has(atspiRole)) return;
    if (!states.has('showing') && states.has('visible') && this.said.get(handle) === true) states.add('showing');
  }
}

/** The driver process's one record, fed by its event watcher (events.ts) and read by its tree reads. */
export const showingHeard = new ShowingHeard();
