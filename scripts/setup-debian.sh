#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages computer-use needs for its Linux driver, the headless sandbox
# (Xvfb + D-Bus + AT-SPI + openbox) and the test apps. Idempotent: installs only what is missing.
set -euo pipefail

PACKAGES=(
  # headless desktop
  xvfb x11-utils dbus dbus-x11 at-spi2-core openbox xdotool  # xdotool: only test/e2e/fallback moves windows with it; the driver sends XTest itself
  # test and demo apps
  gedit mousepad gtk-3-examples gtk-4-examples chromium zenity fonts-noto-cjk
  # the evaluation's held-out apps (bench/eval/tasks/newapps.ts): gnumeric (ssconvert computes the saved sheet for the
  # checker), abiword, geany, meld, gnome-text-editor (GTK 4) and kcalc (Qt 5/KDE); claws-mail is listed below
  gnumeric abiword geany meld gnome-text-editor kcalc
  # LibreOffice Calc with the GTK 3 VCL plugin (a sheet reports 2³¹−1 cells)
  libreoffice-calc libreoffice-gtk3
  # real apps of every shape and toolkit: a VTE terminal, a PDF viewer, a file manager (Thunar),
  # Firefox ESR (Gecko), a Qt 5 editor (FeatherPad), Java Swing (JDK + the ATK bridge), a Wayland compositor
  xfce4-terminal evince thunar firefox-esr featherpad openjdk-17-jre openjdk-17-jdk-headless libatk-wrapper-java-jni weston
  # a Qt 6 app for the Qt 6 e2e test (test/apps/qt6-form.py): Debian has no small Qt 6 app, PyQt6 brings Qt 6
  python3-pyqt6
  # the evaluation's calculator tasks: galculator, a small GTK 3 calculator (bench/eval/tasks/calculator.ts)
  galculator
  # GTK 2: its accessibility modules (gail, atk-bridge), which a launch loads into a GTK 2 program, and LXTask, the
  # GTK 2 app of test/e2e/toolkits/gtk2.test.ts
  libgail-common libatk-adaptor lxtask
  # libatspi for comparison tooling and constant tables
  libatspi2.0-dev python3-gi gir1.2-atspi-2.0
  # bench: find + click side by side with dogtail (bench/dogtail.ts)
  python3-dogtail
  # fallback ladder: capture + Set-of-Mark (imagemagick, DejaVu for labels), OCR (tesseract), clipboard,
  # displays (xrandr), and the drawn-buttons test app (python3-gi + GTK 3 introspection)
  imagemagick fonts-dejavu-core tesseract-ocr tesseract-ocr-eng xclip x11-xserver-utils gir1.2-gtk-3.0
  # remote devices: the ssh client devices are reached with, and a real sshd the device tests start on a
  # loopback port with their own keys and config (test/e2e/devices/sshd.ts); the service itself is not enabled
  openssh-client openssh-server
  # Android: the real adb client and server check the driver's adb wire protocol and the fake adb server
  # (test/unit/android-adb); mksh is the shell Android runs `adb shell` commands with, so the fake phone runs
  # every command the driver sends through it (test/android/fake-device.ts)
  adb mksh
  # macOS driver: the fake AX library (test/macos-fake) is compiled by the unit tests with gcc, once plain and once
  # with AddressSanitizer (gcc's libasan), and the driver is replay-tested against it
  gcc libc6-dev
  # a mail client whose compose window recycles recipient rows: refs never follow a row the app scrolls in
  # (test/e2e/security/recycled-rows.test.ts)
  claws-mail
  # the Android AccessibilityService app's Java core is compiled (javac from the JDK above) and unit-tested here
  junit4
  # identity by content (test/e2e/security/identity-content.test.ts): a renamed copy of the real seahorse (the
  # keyring manager on the built-in deny list) must read as seahorse
  seahorse
  # Windows: Mono's C# compiler stands in for the .NET Framework's csc.exe (the helper must compile as C# 5 with
  # warnings as errors), and Mono runs the helper on recorded answers (test/unit/windows-*.test.ts)
  mono-mcs mono-runtime
  # the conformance kit's WinForms harness (harness/winforms.cs) compiles here against Mono's Windows Forms (7.7 MB)
  libmono-system-windows-forms4.0-cil
  # the helper declares UIA's COM interfaces and ids itself; test/unit/windows-helper-abi.test.ts checks them against
  # Wine's uiautomationclient.idl (libwine-dev) and mingw-w64's uiautomationclient.h / uiautomationcoreapi.h
  libwine-dev mingw-w64-x86-64-dev
  # test/unit/windows-cmdline.test.ts compiles a probe with mingw-w64 and runs it under Wine: hostile argv and
  # variables must round-trip through CreateProcessW, CommandLineToArgvW and the C runtime byte for byte
  wine64 gcc-mingw-w64-x86-64-win32
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)"
  [[ "$status" == ii* ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup-debian: all ${#PACKAGES[@]} packages are installed"
  exit 0
fi

echo "setup-debian: missing: ${missing[*]}"
if [[ "$(id -u)" -ne 0 ]]; then
  echo "setup-debian: not root; run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
echo "setup-debian: installed ${#missing[@]} package(s)"
