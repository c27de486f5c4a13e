package dev.computeruse.android;

import android.accessibilityservice.AccessibilityService;
import android.view.accessibility.AccessibilityEvent;

/**
 * The AccessibilityService (seed §5.4 A): once the user enables it in Settings › Accessibility, it serves the
 * protocol to the paired host over the pairing link (LinkLoop). It makes no policy decision: the host's policy,
 * audit and receipts wrap every act, as for every driver.
 */
public final class ComputerUseService extends AccessibilityService {
  private ServicePlatform platform;
  private LinkLoop loop;

  @Override protected void onServiceConnected() {
    platform = new ServicePlatform(this);
    loop = new LinkLoop(new CredentialStore(this), platform);
    Thread t = new Thread(loop, "computer-use link");
    t.setDaemon(true);
    t.start();
  }

  @Override public void onAccessibilityEvent(AccessibilityEvent event) {
    if (platform != null) platform.touched();
  }

  @Override public void onInterrupt() { /* nothing is spoken or shown, so nothing to interrupt */ }

  @Override public void onDestroy() {
    if (loop != null) loop.stop();
    super.onDestroy();
  }
}
