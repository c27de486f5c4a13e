package dev.computeruse.android;

import android.content.Context;
import android.content.SharedPreferences;
import dev.computeruse.core.PairClient;

/** The pairing credential, in the app's private preferences (no other app can read them). */
final class CredentialStore {
  private static final String FILE = "pairing";
  private final SharedPreferences prefs;

  CredentialStore(Context context) { this.prefs = context.getSharedPreferences(FILE, Context.MODE_PRIVATE); }

  PairClient.Credential load() {
    String server = prefs.getString("server", null), id = prefs.getString("id", null), secret = prefs.getString("secret", null), token = prefs.getString("token", null);
    if (server == null || id == null || secret == null || token == null) return null;
    return new PairClient.Credential(server, id, secret, prefs.getString("name", ""), token);
  }

  void save(PairClient.Credential c) {
    prefs.edit().clear().putString("server", c.server).putString("id", c.id).putString("secret", c.secret).putString("name", c.name).putString("token", c.token).commit();
  }

  void delete() { prefs.edit().clear().commit(); }
}
