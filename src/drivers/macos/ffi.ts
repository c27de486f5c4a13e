/**
 * The C functions the macOS driver calls, bound through koffi (docs/platforms.md, "macOS"): HIServices' Accessibility
 * API
 * (AXUIElement*, AXObserver*, AXIsProcessTrustedWithOptions), CoreFoundation (ownership and conversions),
 * HIServices' Pasteboard (the clipboard), CoreGraphics (keyboard events posted to a pid, the window list and window
 * images), ImageIO (PNG), libproc (process identity), Security (code
 * signatures: the app identity) and CoreServices (Launch Services' bundle-id lookup). Nothing is
 * compiled on the user's Mac: koffi ships prebuilt binaries for macOS x64 and arm64.
 *
 * koffi is loaded here, lazily, on the first bind: nothing on Linux or Windows imports it. The library paths
 * are injectable so the same code runs on Linux against the fake AX library of test/macos-fake (one .so that
 * exports every symbol), which is how the driver is replay-tested.
 */
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';

/** Where each group of symbols lives. */
export interface MacLibraries {
  /** AX*, CGEvent*, CGWindowList*: the ApplicationServices umbrella re-exports HIServices and CoreGraphics. */
  ax: string;
  /** CF*. */
  cf: string;
  /** proc_pidinfo, proc_pidpath, sysctl. */
  proc: string;
  /** SecCode*, SecStaticCode*, SecRequirement* and their kSec* keys. */
  security: string;
  /** LSCopyApplicationURLsForBundleIdentifier (CoreServices re-exports LaunchServices). */
  launchServices: string;
  /** CGImageDestination*, CGImageSource* and kCGImageDestination* keys (window captures: PNG out and in). */
  imageIO: string;
}

/** The system frameworks on macOS. */
export const SYSTEM_LIBRARIES: MacLibraries = {
  ax: '/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices',
  cf: '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation',
  proc: '/usr/lib/libSystem.B.dylib',
  security: '/System/Library/Frameworks/Security.framework/Security',
  launchServices: '/System/Library/Frameworks/CoreServices.framework/CoreServices',
  imageIO: '/System/Library/Frameworks/ImageIO.framework/ImageIO',
};

/**
 * The libraries to bind: the system's, or one library for all (COMPUTER_USE_MACOS_AX_LIB, what the tests
 * set to the fake). Whoever sets a process's environment can already preload code into it, so the variable
 * gives nothing new away.
 */
export function librariesFrom(env: NodeJS.ProcessEnv = process.env): MacLibraries {
  const one = env['COMPUTER_USE_MACOS_AX_LIB'];
  return one ? oneLibrary(one) : SYSTEM_LIBRARIES;
}

/** Every group of symbols from one library (the fake AX library exports them all). */
export function oneLibrary(path: string): MacLibraries {
  return { ax: path, cf: path, proc: path, security: path, launchServices: path, imageIO: path };
}

/** An opaque CoreFoundation reference (koffi external); `null` is NULL. */
export type CFRef = unknown;

/** A function bound by koffi. */
type Fn<A extends unknown[], R> = (...args: A) => R;

/** The bound API. Every `Copy`/`Create` result is owned by the caller and released once (cf.ts). */
export interface MacApi {
  koffi: typeof Koffi;
  // CoreFoundation
  CFRetain: Fn<[CFRef], CFRef>;
  CFRelease: Fn<[CFRef], void>;
  CFGetRetainCount: Fn<[CFRef], number>;
  CFGetTypeID: Fn<[CFRef], number>;
  CFEqual: Fn<[CFRef, CFRef], number>;
  CFHash: Fn<[CFRef], number>;
  CFStringGetTypeID: Fn<[], number>;
  CFNumberGetTypeID: Fn<[], number>;
  CFBooleanGetTypeID: Fn<[], number>;
  CFArrayGetTypeID: Fn<[], number>;
  CFDictionaryGetTypeID: Fn<[], number>;
  AXValueGetTypeID: Fn<[], number>;
  AXUIElementGetTypeID: Fn<[], number>;
  CFStringCreateWithCharacters: Fn<[CFRef, Uint16Array, number], CFRef>;
  CFStringGetLength: Fn<[CFRef], number>;
  CFStringGetCharacters: Fn<[CFRef, { location: number; length: number }, Uint16Array], void>;
  CFNumberCreate: Fn<[CFRef, number, Float64Array | Int32Array], CFRef>;
  CFNumberGetValue: Fn<[CFRef, number, Float64Array], number>;
  CFBooleanGetValue: Fn<[CFRef], number>;
  CFArrayCreate: Fn<[CFRef, CFRef[], number, CFRef], CFRef>;
  CFArrayGetCount: Fn<[CFRef], number>;
  CFArrayGetValueAtIndex: Fn<[CFRef, number], CFRef>;
  CFDictionaryCreate: Fn<[CFRef, CFRef[], CFRef[], number, CFRef, CFRef], CFRef>;
  CFDictionaryGetValue: Fn<[CFRef, CFRef], CFRef>;
  CFRunLoopGetCurrent: Fn<[], CFRef>;
  CFRunLoopAddSource: Fn<[CFRef, CFRef, CFRef], void>;
  CFRunLoopRemoveSource: Fn<[CFRef, CFRef, CFRef], void>;
  CFRunLoopRunInMode: Fn<[CFRef, number, number], number>;
  kCFBooleanTrue: CFRef;
  kCFBooleanFalse: CFRef;
  kCFRunLoopDefaultMode: CFRef;
  kCFTypeArrayCallBacks: CFRef;
  kCFTypeDictionaryKeyCallBacks: CFRef;
  kCFTypeDictionaryValueCallBacks: CFRef;
  CFURLCreateFromFileSystemRepresentation: Fn<[CFRef, Uint8Array, number, number], CFRef>;
  CFURLGetFileSystemRepresentation: Fn<[CFRef, number, Uint8Array, number], number>;
  CFBundleCreate: Fn<[CFRef, CFRef], CFRef>;
  CFBundleCopyExecutableURL: Fn<[CFRef], CFRef>;
  CFDataCreate: Fn<[CFRef, Uint8Array, number], CFRef>;
  CFDataGetLength: Fn<[CFRef], number>;
  CFDataCreateMutable: Fn<[CFRef, number], CFRef>;
  CFDataGetBytes: Fn<[CFRef, { location: number; length: number }, Uint8Array], void>;
  /** A Get: the string is the bundle's, never released by the caller. */
  CFBundleGetIdentifier: Fn<[CFRef], CFRef>;
  // Security (code signatures)
  SecCodeCopyGuestWithAttributes: Fn<[CFRef, CFRef, number, [CFRef]], number>;
  SecStaticCodeCreateWithPath: Fn<[CFRef, number, [CFRef]], number>;
  SecCodeCopySigningInformation: Fn<[CFRef, number, [CFRef]], number>;
  SecRequirementCreateWithString: Fn<[CFRef, number, [CFRef]], number>;
  SecCodeCheckValidity: Fn<[CFRef, number, CFRef], number>;
  SecStaticCodeCheckValidity: Fn<[CFRef, number, CFRef], number>;
  kSecGuestAttributePid: CFRef;
  kSecCodeInfoIdentifier: CFRef;
  kSecCodeInfoTeamIdentifier: CFRef;
  kSecCodeInfoFlags: CFRef;
  // Launch Services
  LSCopyApplicationURLsForBundleIdentifier: Fn<[CFRef, [CFRef]], CFRef>;
  // Accessibility
  AXIsProcessTrustedWithOptions: Fn<[CFRef], number>;
  AXUIElementCreateApplication: Fn<[number], CFRef>;
  AXUIElementCreateSystemWide: Fn<[], CFRef>;
  AXUIElementSetMessagingTimeout: Fn<[CFRef, number], number>;
  AXUIElementCopyAttributeValue: Fn<[CFRef, CFRef, [CFRef]], number>;
  AXUIElementCopyMultipleAttributeValues: Fn<[CFRef, CFRef, number, [CFRef]], number>;
  AXUIElementCopyActionNames: Fn<[CFRef, [CFRef]], number>;
  AXUIElementIsAttributeSettable: Fn<[CFRef, CFRef, Uint8Array], number>;
  AXUIElementSetAttributeValue: Fn<[CFRef, CFRef, CFRef], number>;
  AXUIElementPerformAction: Fn<[CFRef, CFRef], number>;
  AXUIElementCopyElementAtPosition: Fn<[CFRef, number, number, [CFRef]], number>;
  AXUIElementGetPid: Fn<[CFRef, Int32Array], number>;
  AXValueGetType: Fn<[CFRef], number>;
  AXValueGetValue: Fn<[CFRef, number, Uint8Array], number>;
  AXValueCreate: Fn<[number, Uint8Array], CFRef>;
  AXObserverCreate: Fn<[number, unknown, [CFRef]], number>;
  AXObserverAddNotification: Fn<[CFRef, CFRef, CFRef, CFRef], number>;
  AXObserverRemoveNotification: Fn<[CFRef, CFRef, CFRef], number>;
  AXObserverGetRunLoopSource: Fn<[CFRef], CFRef>;
  /** The AXObserverCallback prototype, for koffi.register. */
  observerCallback: Koffi.IKoffiCType;
  // Pasteboard (HIServices): the general pasteboard, clipboard.ts. Item ids are opaque integers.
  PasteboardCreate: Fn<[CFRef, [CFRef]], number>;
  PasteboardSynchronize: Fn<[CFRef], number>;
  PasteboardClear: Fn<[CFRef], number>;
  PasteboardGetItemCount: Fn<[CFRef, [number | bigint]], number>;
  PasteboardGetItemIdentifier: Fn<[CFRef, number, [number | bigint]], number>;
  PasteboardCopyItemFlavors: Fn<[CFRef, number | bigint, [CFRef]], number>;
  PasteboardCopyItemFlavorData: Fn<[CFRef, number | bigint, CFRef, [CFRef]], number>;
  PasteboardPutItemFlavor: Fn<[CFRef, number | bigint, CFRef, CFRef, number], number>;
  // CoreGraphics
  CGEventCreateKeyboardEvent: Fn<[CFRef, number, boolean], CFRef>;
  CGEventSetFlags: Fn<[CFRef, bigint], void>;
  CGEventKeyboardSetUnicodeString: Fn<[CFRef, number, Uint16Array], void>;
  CGEventPostToPid: Fn<[number, CFRef], void>;
  CGEventCreateMouseEvent: Fn<[CFRef, number, { x: number; y: number }, number], CFRef>;
  CGEventCreateScrollWheelEvent2: Fn<[CFRef, number, number, number, number, number], CFRef>;
  CGEventSetIntegerValueField: Fn<[CFRef, number, bigint], void>;
  CGWindowListCopyWindowInfo: Fn<[number, number], CFRef>;
  CGWindowListCreateImage: Fn<[{ x: number; y: number; w: number; h: number }, number, number, number], CFRef>;
  /** Whether Screen Recording is granted, without the system prompt (macOS 10.15+). */
  CGPreflightScreenCaptureAccess: Fn<[], number>;
  CGImageGetWidth: Fn<[CFRef], number>;
  CGImageGetHeight: Fn<[CFRef], number>;
  // ImageIO
  CGImageDestinationCreateWithData: Fn<[CFRef, CFRef, number, CFRef], CFRef>;
  CGImageDestinationAddImage: Fn<[CFRef, CFRef, CFRef], void>;
  CGImageDestinationFinalize: Fn<[CFRef], number>;
  kCGImageDestinationImageMaxPixelSize: CFRef;
  CGImageSourceCreateWithData: Fn<[CFRef, CFRef], CFRef>;
  CGImageSourceCreateImageAtIndex: Fn<[CFRef, number, CFRef], CFRef>;
  // libproc
  proc_pidinfo: Fn<[number, number, bigint, Uint8Array, number], number>;
  proc_pidpath: Fn<[number, Uint8Array, number], number>;
  /** sysctl(3): KERN_PROCARGS2 (procargs.ts). oldlenp is in and out: the buffer's size, then the bytes written. */
  sysctl: Fn<[Int32Array, number, Uint8Array, [bigint | number], null, number], number>;
}

let koffiModule: typeof Koffi | undefined;
/** koffi itself, required on first use (a CommonJS package with a native binary). */
function loadKoffi(): typeof Koffi {
  koffiModule ??= createRequire(import.meta.url)('koffi') as typeof Koffi;
  return koffiModule;
}

const bound = new Map<string, MacApi>();

/** Binds every symbol (once per set of libraries); a missing library or symbol throws with its name. */
export function bindMacApi(libs: MacLibraries = librariesFrom()): MacApi {
  const key = [libs.ax, libs.cf, libs.proc, libs.security, libs.launchServices, libs.imageIO].join('\n');
  const hit = bound.get(key);
  if (hit) return hit;
  const koffi = loadKoffi();
  const types = sharedTypes(koffi);
  const ax = koffi.load(libs.ax);
  const cf = libs.cf === libs.ax ? ax : koffi.load(libs.cf);
  const load = (path: string): Koffi.IKoffiLib => (path === libs.ax ? ax : path === libs.cf ? cf : koffi.load(path));
  const proc = load(libs.proc);
  const sec = load(libs.security);
  const ls = load(libs.launchServices);
  const io = load(libs.imageIO);
  const ptrSymbol = (name: string, lib = cf): CFRef => koffi.decode(lib.symbol(name, 'CFTypeRef'), 'CFTypeRef');
  const dataSymbol = (name: string): CFRef => cf.symbol(name, types.callbacks);
  const api: MacApi = {
    koffi,
    CFRetain: cf.func('CFTypeRef CFRetain(CFTypeRef cf)'),
    CFRelease: cf.func('void CFRelease(CFTypeRef cf)'),
    CFGetRetainCount: cf.func('long CFGetRetainCount(CFTypeRef cf)'),
    CFGetTypeID: cf.func('unsigned long CFGetTypeID(CFTypeRef cf)'),
    CFEqual: cf.func('uint8_t CFEqual(CFTypeRef a, CFTypeRef b)'),
    CFHash: cf.func('unsigned long CFHash(CFTypeRef cf)'),
    CFStringGetTypeID: cf.func('unsigned long CFStringGetTypeID()'),
    CFNumberGetTypeID: cf.func('unsigned long CFNumberGetTypeID()'),
    CFBooleanGetTypeID: cf.func('unsigned long CFBooleanGetTypeID()'),
    CFArrayGetTypeID: cf.func('unsigned long CFArrayGetTypeID()'),
    CFDictionaryGetTypeID: cf.func('unsigned long CFDictionaryGetTypeID()'),
    AXValueGetTypeID: ax.func('unsigned long AXValueGetTypeID()'),
    AXUIElementGetTypeID: ax.func('unsigned long AXUIElementGetTypeID()'),
    CFStringCreateWithCharacters: cf.func(
      'CFTypeRef CFStringCreateWithCharacters(CFTypeRef alloc, const uint16_t *chars, long n)',
    ),
    CFStringGetLength: cf.func('long CFStringGetLength(CFTypeRef s)'),
    CFStringGetCharacters: cf.func('void CFStringGetCharacters(CFTypeRef s, CFRange range, _Out_ uint16_t *buf)'),
    CFNumberCreate: cf.func('CFTypeRef CFNumberCreate(CFTypeRef alloc, long type, const void *value)'),
    CFNumberGetValue: cf.func('uint8_t CFNumberGetValue(CFTypeRef n, long type, _Out_ void *value)'),
    CFBooleanGetValue: cf.func('uint8_t CFBooleanGetValue(CFTypeRef b)'),
    CFArrayCreate: cf.func(
      'CFTypeRef CFArrayCreate(CFTypeRef alloc, CFTypeRef *values, long n, const void *callbacks)',
    ),
    CFArrayGetCount: cf.func('long CFArrayGetCount(CFTypeRef a)'),
    CFArrayGetValueAtIndex: cf.func('CFTypeRef CFArrayGetValueAtIndex(CFTypeRef a, long i)'),
    CFDictionaryCreate: cf.func(
      'CFTypeRef CFDictionaryCreate(CFTypeRef alloc, CFTypeRef *keys, CFTypeRef *values, long n, const void *kcb, const void *vcb)',
    ),
    CFDictionaryGetValue: cf.func('CFTypeRef CFDictionaryGetValue(CFTypeRef d, CFTypeRef key)'),
    CFRunLoopGetCurrent: cf.func('CFTypeRef CFRunLoopGetCurrent()'),
    CFRunLoopAddSource: cf.func('void CFRunLoopAddSource(CFTypeRef rl, CFTypeRef source, CFTypeRef mode)'),
    CFRunLoopRemoveSource: cf.func('void CFRunLoopRemoveSource(CFTypeRef rl, CFTypeRef source, CFTypeRef mode)'),
    CFRunLoopRunInMode: cf.func(
      'int32_t CFRunLoopRunInMode(CFTypeRef mode, double seconds, uint8_t returnAfterSourceHandled)',
    ),
    kCFBooleanTrue: ptrSymbol('kCFBooleanTrue'),
    kCFBooleanFalse: ptrSymbol('kCFBooleanFalse'),
    kCFRunLoopDefaultMode: ptrSymbol('kCFRunLoopDefaultMode'),
    kCFTypeArrayCallBacks: dataSymbol('kCFTypeArrayCallBacks'),
    kCFTypeDictionaryKeyCallBacks: dataSymbol('kCFTypeDictionaryKeyCallBacks'),
    kCFTypeDictionaryValueCallBacks: dataSymbol('kCFTypeDictionaryValueCallBacks'),
    CFURLCreateFromFileSystemRepresentation: cf.func(
      'CFTypeRef CFURLCreateFromFileSystemRepresentation(CFTypeRef alloc, const uint8_t *buf, long len, uint8_t isDirectory)',
    ),
    CFURLGetFileSystemRepresentation: cf.func(
      'uint8_t CFURLGetFileSystemRepresentation(CFTypeRef url, uint8_t resolveAgainstBase, _Out_ uint8_t *buf, long max)',
    ),
    CFDataCreate: cf.func('CFTypeRef CFDataCreate(CFTypeRef alloc, const uint8_t *bytes, long length)'),
    CFDataGetLength: cf.func('long CFDataGetLength(CFTypeRef data)'),
    CFDataCreateMutable: cf.func('CFTypeRef CFDataCreateMutable(CFTypeRef alloc, long capacity)'),
    CFDataGetBytes: cf.func('void CFDataGetBytes(CFTypeRef data, CFRange range, _Out_ uint8_t *buf)'),
    CFBundleCreate: cf.func('CFTypeRef CFBundleCreate(CFTypeRef alloc, CFTypeRef url)'),
    CFBundleCopyExecutableURL: cf.func('CFTypeRef CFBundleCopyExecutableURL(CFTypeRef bundle)'),
    CFBundleGetIdentifier: cf.func('CFTypeRef CFBundleGetIdentifier(CFTypeRef bundle)'),
    SecCodeCopyGuestWithAttributes: sec.func(
      'int32_t SecCodeCopyGuestWithAttributes(CFTypeRef host, CFTypeRef attrs, uint32_t flags, _Out_ CFTypeRef *guest)',
    ),
    SecStaticCodeCreateWithPath: sec.func(
      'int32_t SecStaticCodeCreateWithPath(CFTypeRef path, uint32_t flags, _Out_ CFTypeRef *code)',
    ),
    SecCodeCopySigningInformation: sec.func(
      'int32_t SecCodeCopySigningInformation(CFTypeRef code, uint32_t flags, _Out_ CFTypeRef *info)',
    ),
    SecRequirementCreateWithString: sec.func(
      'int32_t SecRequirementCreateWithString(CFTypeRef text, uint32_t flags, _Out_ CFTypeRef *req)',
    ),
    SecCodeCheckValidity: sec.func('int32_t SecCodeCheckValidity(CFTypeRef code, uint32_t flags, CFTypeRef req)'),
    SecStaticCodeCheckValidity: sec.func(
      'int32_t SecStaticCodeCheckValidity(CFTypeRef code, uint32_t flags, CFTypeRef req)',
    ),
    kSecGuestAttributePid: ptrSymbol('kSecGuestAttributePid', sec),
    kSecCodeInfoIdentifier: ptrSymbol('kSecCodeInfoIdentifier', sec),
    kSecCodeInfoTeamIdentifier: ptrSymbol('kSecCodeInfoTeamIdentifier', sec),
    kSecCodeInfoFlags: ptrSymbol('kSecCodeInfoFlags', sec),
    LSCopyApplicationURLsForBundleIdentifier: ls.func(
      'CFTypeRef LSCopyApplicationURLsForBundleIdentifier(CFTypeRef bundleId, _Out_ CFTypeRef *error)',
    ),
    AXIsProcessTrustedWithOptions: ax.func('uint8_t AXIsProcessTrustedWithOptions(CFTypeRef options)'),
    AXUIElementCreateApplication: ax.func('CFTypeRef AXUIElementCreateApplication(int32_t pid)'),
    AXUIElementCreateSystemWide: ax.func('CFTypeRef AXUIElementCreateSystemWide()'),
    AXUIElementSetMessagingTimeout: ax.func('int32_t AXUIElementSetMessagingTimeout(CFTypeRef el, float seconds)'),
    AXUIElementCopyAttributeValue: ax.func(
      'int32_t AXUIElementCopyAttributeValue(CFTypeRef el, CFTypeRef attr, _Out_ CFTypeRef *value)',
    ),
    AXUIElementCopyMultipleAttributeValues: ax.func(
      'int32_t AXUIElementCopyMultipleAttributeValues(CFTypeRef el, CFTypeRef attrs, int32_t options, _Out_ CFTypeRef *values)',
    ),
    AXUIElementCopyActionNames: ax.func('int32_t AXUIElementCopyActionNames(CFTypeRef el, _Out_ CFTypeRef *names)'),
    AXUIElementIsAttributeSettable: ax.func(
      'int32_t AXUIElementIsAttributeSettable(CFTypeRef el, CFTypeRef attr, _Out_ uint8_t *settable)',
    ),
    AXUIElementSetAttributeValue: ax.func(
      'int32_t AXUIElementSetAttributeValue(CFTypeRef el, CFTypeRef attr, CFTypeRef value)',
    ),
    AXUIElementPerformAction: ax.func('int32_t AXUIElementPerformAction(CFTypeRef el, CFTypeRef action)'),
    AXUIElementCopyElementAtPosition: ax.func(
      'int32_t AXUIElementCopyElementAtPosition(CFTypeRef el, float x, float y, _Out_ CFTypeRef *element)',
    ),
    AXUIElementGetPid: ax.func('int32_t AXUIElementGetPid(CFTypeRef el, _Out_ int32_t *pid)'),
    AXValueGetType: ax.func('int32_t AXValueGetType(CFTypeRef v)'),
    AXValueGetValue: ax.func('uint8_t AXValueGetValue(CFTypeRef v, int32_t type, _Out_ void *out)'),
    AXValueCreate: ax.func('CFTypeRef AXValueCreate(int32_t type, const void *value)'),
    AXObserverCreate: ax.func(
      'int32_t AXObserverCreate(int32_t pid, AXObserverCallback *cb, _Out_ CFTypeRef *observer)',
    ),
    AXObserverAddNotification: ax.func(
      'int32_t AXObserverAddNotification(CFTypeRef observer, CFTypeRef el, CFTypeRef name, void *refcon)',
    ),
    AXObserverRemoveNotification: ax.func(
      'int32_t AXObserverRemoveNotification(CFTypeRef observer, CFTypeRef el, CFTypeRef name)',
    ),
    AXObserverGetRunLoopSource: ax.func('CFTypeRef AXObserverGetRunLoopSource(CFTypeRef observer)'),
    observerCallback: types.observerCallback,
    PasteboardCreate: ax.func('int32_t PasteboardCreate(CFTypeRef name, _Out_ CFTypeRef *pasteboard)'),
    PasteboardSynchronize: ax.func('uint32_t PasteboardSynchronize(CFTypeRef pasteboard)'),
    PasteboardClear: ax.func('int32_t PasteboardClear(CFTypeRef pasteboard)'),
    PasteboardGetItemCount: ax.func('int32_t PasteboardGetItemCount(CFTypeRef pasteboard, _Out_ unsigned long *count)'),
    PasteboardGetItemIdentifier: ax.func(
      'int32_t PasteboardGetItemIdentifier(CFTypeRef pasteboard, long index, _Out_ uintptr_t *item)',
    ),
    PasteboardCopyItemFlavors: ax.func(
      'int32_t PasteboardCopyItemFlavors(CFTypeRef pasteboard, uintptr_t item, _Out_ CFTypeRef *flavors)',
    ),
    PasteboardCopyItemFlavorData: ax.func(
      'int32_t PasteboardCopyItemFlavorData(CFTypeRef pasteboard, uintptr_t item, CFTypeRef flavor, _Out_ CFTypeRef *data)',
    ),
    PasteboardPutItemFlavor: ax.func(
      'int32_t PasteboardPutItemFlavor(CFTypeRef pasteboard, uintptr_t item, CFTypeRef flavor, CFTypeRef data, uint32_t flags)',
    ),
    CGEventCreateKeyboardEvent: ax.func(
      'CFTypeRef CGEventCreateKeyboardEvent(CFTypeRef source, uint16_t key, bool down)',
    ),
    CGEventSetFlags: ax.func('void CGEventSetFlags(CFTypeRef ev, uint64_t flags)'),
    CGEventKeyboardSetUnicodeString: ax.func(
      'void CGEventKeyboardSetUnicodeString(CFTypeRef ev, long n, const uint16_t *chars)',
    ),
    CGEventPostToPid: ax.func('void CGEventPostToPid(int32_t pid, CFTypeRef ev)'),
    CGEventCreateMouseEvent: ax.func(
      'CFTypeRef CGEventCreateMouseEvent(CFTypeRef source, uint32_t type, CGPoint pos, uint32_t button)',
    ),
    // The non-variadic form (macOS 10.13+): koffi then needs no per-call argument types.
    CGEventCreateScrollWheelEvent2: ax.func(
      'CFTypeRef CGEventCreateScrollWheelEvent2(CFTypeRef source, uint32_t units, uint32_t wheelCount, int32_t wheel1, int32_t wheel2, int32_t wheel3)',
    ),
    CGEventSetIntegerValueField: ax.func(
      'void CGEventSetIntegerValueField(CFTypeRef ev, uint32_t field, int64_t value)',
    ),
    CGWindowListCopyWindowInfo: ax.func('CFTypeRef CGWindowListCopyWindowInfo(uint32_t option, uint32_t relativeTo)'),
    CGWindowListCreateImage: ax.func(
      'CFTypeRef CGWindowListCreateImage(CGRect bounds, uint32_t listOption, uint32_t windowID, uint32_t imageOption)',
    ),
    CGPreflightScreenCaptureAccess: ax.func('uint8_t CGPreflightScreenCaptureAccess()'),
    CGImageGetWidth: ax.func('size_t CGImageGetWidth(CFTypeRef image)'),
    CGImageGetHeight: ax.func('size_t CGImageGetHeight(CFTypeRef image)'),
    CGImageDestinationCreateWithData: io.func(
      'CFTypeRef CGImageDestinationCreateWithData(CFTypeRef data, CFTypeRef type, size_t count, CFTypeRef options)',
    ),
    CGImageDestinationAddImage: io.func(
      'void CGImageDestinationAddImage(CFTypeRef dest, CFTypeRef image, CFTypeRef properties)',
    ),
    CGImageDestinationFinalize: io.func('uint8_t CGImageDestinationFinalize(CFTypeRef dest)'),
    kCGImageDestinationImageMaxPixelSize: ptrSymbol('kCGImageDestinationImageMaxPixelSize', io),
    CGImageSourceCreateWithData: io.func('CFTypeRef CGImageSourceCreateWithData(CFTypeRef data, CFTypeRef options)'),
    CGImageSourceCreateImageAtIndex: io.func(
      'CFTypeRef CGImageSourceCreateImageAtIndex(CFTypeRef source, size_t index, CFTypeRef options)',
    ),
    proc_pidinfo: proc.func('int proc_pidinfo(int pid, int flavor, uint64_t arg, _Out_ uint8_t *buffer, int size)'),
    proc_pidpath: proc.func('int proc_pidpath(int pid, _Out_ uint8_t *buffer, uint32_t size)'),
    sysctl: proc.func(
      'int sysctl(const int32_t *name, uint32_t namelen, _Out_ uint8_t *oldp, _Inout_ size_t *oldlenp, void *newp, size_t newlen)',
    ),
  };
  bound.set(key, api);
  return api;
}

let typeCache: { observerCallback: Koffi.IKoffiCType; callbacks: Koffi.IKoffiCType } | undefined;
/** Named koffi types are process-wide: declared once. */
function sharedTypes(koffi: typeof Koffi): NonNullable<typeof typeCache> {
  if (typeCache) return typeCache;
  // void *: a reference read from a symbol, a callback or a return value passes anywhere a CF reference goes.
  koffi.alias('CFTypeRef', 'void *');
  koffi.struct('CFRange', { location: 'long', length: 'long' });
  koffi.struct('CGPoint', { x: 'double', y: 'double' });
  // CGRect is { CGPoint origin; CGSize size; }: four doubles in this order.
  koffi.struct('CGRect', { x: 'double', y: 'double', w: 'double', h: 'double' });
  const observerCallback = koffi.proto(
    'void AXObserverCallback(CFTypeRef observer, CFTypeRef element, CFTypeRef notification, void *refcon)',
  );
  // CFArrayCallBacks / CFDictionary*CallBacks: their address is all a caller passes.
  const callbacks = koffi.array('uint8_t', 40);
  typeCache = { observerCallback, callbacks };
  return typeCache;
}
