/** The screenshot token formula lives with the demo's token accounting; the bench uses the same one. */
export { SCREENSHOT_FORMULA, screenshotTokens } from '../src/demo/tokens.js';
