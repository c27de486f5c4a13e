/** The built-in deny list on Android: password managers and authenticators by package, security screens by activity. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppRules, builtinDenied } from '../../src/policy/apps.js';

test('Android password managers, authenticators and the permission controller are denied by package name', () => {
  for (const pkg of [
    'com.x8bit.bitwarden',
    'com.onepassword.android',
    'keepass2android.keepass2android',
    'com.kunzisoft.keepass.free',
    'com.google.android.apps.authenticator2',
    'com.google.android.permissioncontroller',
    'proton.android.pass',
  ]) {
    assert.ok(builtinDenied(pkg), pkg);
  }
  for (const pkg of ['com.android.settings', 'com.example.messenger', 'com.google.android.gm'])
    assert.equal(builtinDenied(pkg), undefined, pkg);
});

test('Android security, lock-screen and accessibility screens are ' +
    'denied by their activity; other Settings pages are not', () => {
  const rules = new AppRules();
  const screen = (title: string): string | undefined => rules.denied({ name: 'com.android.settings', title });
  for (const t of [
    'Settings$SecurityDashboardActivity',
    'ChooseLockGenericActivity',
    'Settings$AccessibilitySettingsActivity',
    'Settings$DevelopmentSettingsDashboardActivity',
    'Settings$BiometricSettingsActivity',
  ]) {
    assert.match(screen(t) ?? '', /Android security/, t);
  }
  for (const t of [
    'Settings$NetworkDashboardActivity',
    'Settings$WifiSettingsActivity',
    'Settings$DisplaySettingsActivity',
  ])
    assert.equal(screen(t), undefined, t);
});
