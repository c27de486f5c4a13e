// The UI Automation client COM interfaces, declared here so the helper references nothing beyond mscorlib.
// Each interface lists its vtable in order up to the last method the helper calls; `_VtblGapN_M` reserves M
// slots the helper never calls (the CLR's own convention for skipped slots). The order is checked by
// test/unit/windows-helper-abi.test.ts against Wine's uiautomationclient.idl and, for the pattern interfaces
// Wine only forward-declares, against test/fixtures/windows/uia-pattern-vtables.json (written from Microsoft's
// UIAutomationClient.h documentation).
using System;
using System.Runtime.InteropServices;

namespace ComputerUse.Windows
{
    /// <summary>TreeScope: which elements a find or a cache request covers.</summary>
    public static class TreeScope
    {
        public const int Element = 1, Children = 2, Descendants = 4, Subtree = 7;
    }

    /// <summary>The CUIAutomation coclass (CLSID from uiautomationclient.idl).</summary>
    [ComImport, Guid("ff48dba4-60ef-4201-aa87-54103eef594e")]
    public class CUIAutomation { }

    [ComImport, Guid("352ffba8-0973-437c-a61f-f64cafd81df9"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationCondition { }

    [ComImport, Guid("b32a92b5-bc25-4078-9c08-d7ee95c48e03"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationCacheRequest
    {
        void AddProperty(int propertyId);
        void AddPattern(int patternId);
        IUIAutomationCacheRequest Clone();
        int get_TreeScope();
        void put_TreeScope(int scope);
        IUIAutomationCondition get_TreeFilter();
        void put_TreeFilter(IUIAutomationCondition filter);
        int get_AutomationElementMode();
        void put_AutomationElementMode(int mode);
    }

    [ComImport, Guid("14314595-b4bc-4055-95f2-58f2e42c9855"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationElementArray
    {
        int get_Length();
        IUIAutomationElement GetElement(int index);
    }

    [ComImport, Guid("d22108aa-8ac5-49a5-837b-37bbb3d7591e"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationElement
    {
        void SetFocus();
        [return: MarshalAs(UnmanagedType.SafeArray, SafeArraySubType = VarEnum.VT_I4)]
        int[] GetRuntimeId();
        IUIAutomationElement FindFirst(int scope, IUIAutomationCondition condition);
        IUIAutomationElementArray FindAll(int scope, IUIAutomationCondition condition);
        IUIAutomationElement FindFirstBuildCache(int scope, IUIAutomationCondition condition, IUIAutomationCacheRequest cacheRequest);
        IUIAutomationElementArray FindAllBuildCache(int scope, IUIAutomationCondition condition, IUIAutomationCacheRequest cacheRequest);
        IUIAutomationElement BuildUpdatedCache(IUIAutomationCacheRequest cacheRequest);
        [return: MarshalAs(UnmanagedType.Struct)]
        object GetCurrentPropertyValue(int propertyId);
        [return: MarshalAs(UnmanagedType.Struct)]
        object GetCurrentPropertyValueEx(int propertyId, int ignoreDefaultValue);
        [return: MarshalAs(UnmanagedType.Struct)]
        object GetCachedPropertyValue(int propertyId);
        [return: MarshalAs(UnmanagedType.Struct)]
        object GetCachedPropertyValueEx(int propertyId, int ignoreDefaultValue);
        void _VtblGap1_2(); // GetCurrentPatternAs, GetCachedPatternAs
        [return: MarshalAs(UnmanagedType.IUnknown)]
        object GetCurrentPattern(int patternId);
        [return: MarshalAs(UnmanagedType.IUnknown)]
        object GetCachedPattern(int patternId);
        IUIAutomationElement GetCachedParent();
        IUIAutomationElementArray GetCachedChildren();
        int get_CurrentProcessId();
        int get_CurrentControlType();
    }

    [ComImport, Guid("4042c624-389c-4afc-a630-9df854a541fc"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTreeWalker
    {
        IUIAutomationElement GetParentElement(IUIAutomationElement element);
        IUIAutomationElement GetFirstChildElement(IUIAutomationElement element);
        IUIAutomationElement GetLastChildElement(IUIAutomationElement element);
        IUIAutomationElement GetNextSiblingElement(IUIAutomationElement element);
        IUIAutomationElement GetPreviousSiblingElement(IUIAutomationElement element);
        IUIAutomationElement NormalizeElement(IUIAutomationElement element);
        IUIAutomationElement GetParentElementBuildCache(IUIAutomationElement element, IUIAutomationCacheRequest cacheRequest);
    }

    [ComImport, Guid("c270f6b5-5c69-4290-9745-7a7f97169468"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationFocusChangedEventHandler
    {
        void HandleFocusChangedEvent(IUIAutomationElement sender);
    }

    [ComImport, Guid("e81d1b4e-11c5-42f8-9754-e7036c79f054"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationStructureChangedEventHandler
    {
        void HandleStructureChangedEvent(IUIAutomationElement sender, int changeType,
            [MarshalAs(UnmanagedType.SafeArray, SafeArraySubType = VarEnum.VT_I4)] int[] runtimeId);
    }

    [ComImport, Guid("40cd37d4-c756-4b0c-8c6f-bddfeeb13b50"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationPropertyChangedEventHandler
    {
        void HandlePropertyChangedEvent(IUIAutomationElement sender, int propertyId, [MarshalAs(UnmanagedType.Struct)] object newValue);
    }

    [ComImport, Guid("30cbe57d-d9d0-452a-ab13-7ac5ac4825ee"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomation
    {
        int CompareElements(IUIAutomationElement el1, IUIAutomationElement el2);
        int CompareRuntimeIds([MarshalAs(UnmanagedType.SafeArray, SafeArraySubType = VarEnum.VT_I4)] int[] runtimeId1,
            [MarshalAs(UnmanagedType.SafeArray, SafeArraySubType = VarEnum.VT_I4)] int[] runtimeId2);
        IUIAutomationElement GetRootElement();
        IUIAutomationElement ElementFromHandle(IntPtr hwnd);
        void _VtblGap1_1(); // ElementFromPoint (its POINT is passed by value)
        IUIAutomationElement GetFocusedElement();
        void _VtblGap2_5(); // GetRootElementBuildCache … CreateTreeWalker
        IUIAutomationTreeWalker get_ControlViewWalker();
        IUIAutomationTreeWalker get_ContentViewWalker();
        IUIAutomationTreeWalker get_RawViewWalker();
        IUIAutomationCondition get_RawViewCondition();
        IUIAutomationCondition get_ControlViewCondition();
        IUIAutomationCondition get_ContentViewCondition();
        IUIAutomationCacheRequest CreateCacheRequest();
        IUIAutomationCondition CreateTrueCondition();
        IUIAutomationCondition CreateFalseCondition();
        IUIAutomationCondition CreatePropertyCondition(int propertyId, [MarshalAs(UnmanagedType.Struct)] object value);
        IUIAutomationCondition CreatePropertyConditionEx(int propertyId, [MarshalAs(UnmanagedType.Struct)] object value, int flags);
        IUIAutomationCondition CreateAndCondition(IUIAutomationCondition condition1, IUIAutomationCondition condition2);
        void _VtblGap3_2(); // CreateAndConditionFromArray, CreateAndConditionFromNativeArray
        IUIAutomationCondition CreateOrCondition(IUIAutomationCondition condition1, IUIAutomationCondition condition2);
        void _VtblGap4_2(); // CreateOrConditionFromArray, CreateOrConditionFromNativeArray
        IUIAutomationCondition CreateNotCondition(IUIAutomationCondition condition);
        void _VtblGap5_3(); // AddAutomationEventHandler, RemoveAutomationEventHandler, AddPropertyChangedEventHandlerNativeArray
        void AddPropertyChangedEventHandler(IUIAutomationElement element, int scope, IUIAutomationCacheRequest cacheRequest,
            IUIAutomationPropertyChangedEventHandler handler, [MarshalAs(UnmanagedType.SafeArray, SafeArraySubType = VarEnum.VT_I4)] int[] propertyArray);
        void RemovePropertyChangedEventHandler(IUIAutomationElement element, IUIAutomationPropertyChangedEventHandler handler);
        void AddStructureChangedEventHandler(IUIAutomationElement element, int scope, IUIAutomationCacheRequest cacheRequest,
            IUIAutomationStructureChangedEventHandler handler);
        void RemoveStructureChangedEventHandler(IUIAutomationElement element, IUIAutomationStructureChangedEventHandler handler);
        void AddFocusChangedEventHandler(IUIAutomationCacheRequest cacheRequest, IUIAutomationFocusChangedEventHandler handler);
        void RemoveFocusChangedEventHandler(IUIAutomationFocusChangedEventHandler handler);
        void RemoveAllEventHandlers();
    }

    // The pattern interfaces: one per op (Invoke, Toggle, SelectionItem, ExpandCollapse, Value, RangeValue,
    // ScrollItem/Scroll, Text) and LegacyIAccessible as the fallback (MSAA's default action and value).

    [ComImport, Guid("fb377fbe-8ea6-46d5-9c73-6499642d3059"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationInvokePattern
    {
        void Invoke();
    }

    /// <summary>A window's own commands; only Close, the first of its vtable, is declared (the title bar's close).</summary>
    [ComImport, Guid("0faef453-9208-43ef-bbb2-3b485177864f"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationWindowPattern
    {
        void Close();
    }

    [ComImport, Guid("94cf8058-9b8d-4ab9-8bfd-4cd0a33c8c70"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTogglePattern
    {
        void Toggle();
        int get_CurrentToggleState();
    }

    [ComImport, Guid("a8efa66a-0fda-421a-9194-38021f3578ea"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationSelectionItemPattern
    {
        void Select();
        void AddToSelection();
        void RemoveFromSelection();
        int get_CurrentIsSelected();
    }

    [ComImport, Guid("619be086-1f4e-4ee4-bafa-210128738730"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationExpandCollapsePattern
    {
        void Expand();
        void Collapse();
        int get_CurrentExpandCollapseState();
    }

    [ComImport, Guid("a94cd8b1-0844-4cd6-9d2d-640537ab39e9"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationValuePattern
    {
        void SetValue([MarshalAs(UnmanagedType.BStr)] string val);
        [return: MarshalAs(UnmanagedType.BStr)]
        string get_CurrentValue();
        int get_CurrentIsReadOnly();
    }

    [ComImport, Guid("59213f4f-7346-49e5-b120-80555987a148"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationRangeValuePattern
    {
        void SetValue(double val);
        double get_CurrentValue();
        int get_CurrentIsReadOnly();
        double get_CurrentMaximum();
        double get_CurrentMinimum();
    }

    [ComImport, Guid("88f4d42a-e881-459d-a77c-73bbbb7e02dc"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationScrollPattern
    {
        void Scroll(int horizontalAmount, int verticalAmount);
    }

    [ComImport, Guid("b488300f-d015-4f19-9c29-bb595e3645ef"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationScrollItemPattern
    {
        void ScrollIntoView();
    }

    [ComImport, Guid("a543cc6a-f4ae-494b-8239-c814481187a8"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTextRange
    {
        void _VtblGap1_9(); // Clone … GetEnclosingElement
        [return: MarshalAs(UnmanagedType.BStr)]
        string GetText(int maxLength);
    }

    [ComImport, Guid("32eba289-3583-42c9-9c59-3b6d9a1e9b6a"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTextPattern
    {
        void _VtblGap1_4(); // RangeFromPoint, RangeFromChild, GetSelection, GetVisibleRanges
        IUIAutomationTextRange get_DocumentRange();
    }

    [ComImport, Guid("828055ad-355b-4435-86d5-3b51c14a9b1b"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationLegacyIAccessiblePattern
    {
        void Select(int flagsSelect);
        void DoDefaultAction();
        void SetValue([MarshalAs(UnmanagedType.LPWStr)] string szValue);
    }
}
