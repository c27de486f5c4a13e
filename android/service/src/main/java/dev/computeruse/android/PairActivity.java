package dev.computeruse.android;

import android.app.Activity;
import android.os.Bundle;
import dev.computeruse.core.PairClient;

/**
 * Pairs the phone with a host: `adb shell am start -n dev.computeruse/.android.PairActivity --es server
 * ws://127.0.0.1:7787 --es code 123-456` (after `computer-use pairing start` and `adb reverse tcp:7787 tcp:7787`).
 * The manifest lets only callers holding WRITE_SECURE_SETTINGS start it (the adb shell has it; apps cannot),
 * because whoever pairs the service commands the phone. It shows nothing and finishes; the service then dials.
 */
public final class PairActivity extends Activity {
  @Override protected void onCreate(Bundle savedInstanceState) {
    super.onCreate(savedInstanceState);
    final String server = getIntent().getStringExtra("server");
    final String code = getIntent().getStringExtra("code");
    final CredentialStore store = new CredentialStore(this);
    if (server != null && code != null) {
      Thread t = new Thread(new Runnable() {
        @Override public void run() {
          try { store.save(PairClient.pair(server, code)); } catch (Exception e) { /* refused or unreachable: nothing is kept; pair again */ }
        }
      }, "computer-use pair");
      t.start();
    }
    finish();
  }
}
