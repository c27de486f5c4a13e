// UI Automation property and pattern ids the helper reads. Values from the Windows SDK's UIAutomationClient.h;
// test/unit/windows-helper-abi.test.ts checks each against mingw-w64's uiautomationclient.h.
namespace ComputerUse.Windows
{
    public static class Prop
    {
        public const int RuntimeId = 30000, BoundingRectangle = 30001, ProcessId = 30002, ControlType = 30003;
        public const int Name = 30005, AccessKey = 30007, HasKeyboardFocus = 30008, IsKeyboardFocusable = 30009;
        public const int IsEnabled = 30010, AutomationId = 30011, ClassName = 30012, HelpText = 30013;
        public const int IsPassword = 30019, NativeWindowHandle = 30020, IsOffscreen = 30022, FrameworkId = 30024;
        public const int IsRequiredForForm = 30025;
        public const int IsExpandCollapsePatternAvailable = 30028, IsInvokePatternAvailable = 30031;
        public const int IsRangeValuePatternAvailable = 30033, IsScrollPatternAvailable = 30034;
        public const int IsScrollItemPatternAvailable = 30035, IsSelectionItemPatternAvailable = 30036;
        public const int IsSelectionPatternAvailable = 30037, IsTextPatternAvailable = 30040;
        public const int IsTogglePatternAvailable = 30041, IsValuePatternAvailable = 30043;
        public const int IsWindowPatternAvailable = 30044, IsLegacyIAccessiblePatternAvailable = 30090;
        public const int ValueValue = 30045, ValueIsReadOnly = 30046;
        public const int RangeValueValue = 30047, RangeValueIsReadOnly = 30048, RangeValueMinimum = 30049;
        public const int RangeValueMaximum = 30050, RangeValueSmallChange = 30052;
        public const int ExpandCollapseExpandCollapseState = 30070, WindowIsModal = 30077;
        public const int SelectionItemIsSelected = 30079, ToggleToggleState = 30086;
        public const int LegacyIAccessibleRole = 30095, LegacyIAccessibleState = 30096, LegacyIAccessibleDefaultAction = 30100;
        public const int AriaRole = 30101, FullDescription = 30159, HeadingLevel = 30173, IsDialog = 30174;
    }

    public static class Pattern
    {
        public const int Invoke = 10000, Selection = 10001, Value = 10002, RangeValue = 10003, Scroll = 10004;
        public const int ExpandCollapse = 10005, Window = 10009, SelectionItem = 10010, Text = 10014;
        public const int Toggle = 10015, ScrollItem = 10017, LegacyIAccessible = 10018;
    }

    public static class EventId
    {
        public const int StructureChanged = 20002, AutomationPropertyChanged = 20004, AutomationFocusChanged = 20005;
    }
}
