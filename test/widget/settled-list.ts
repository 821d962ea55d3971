import type { Page } from 'playwright-core';

/**
 * Waits for the options shown for the text now in the field: a list that is no longer
 * `aria-busy` (the widget marks it from the keystroke until that text's answer is shown).
 * Waiting for any visible option instead can catch a list still showing an earlier
 * prefix's answer, which a slow machine lets through between two typed characters.
 */
export async function waitForSettledList(page: Page): Promise<void> {
  await page.locator('[role=listbox]:not([aria-busy]) [role=option]').first().waitFor({ state: 'visible' });
}

/** Focuses `field`, types `text` key by key, and waits for the list answered for all of it. */
export async function typeAndWaitForList(page: Page, text: string, field = '#address'): Promise<void> {
  await page.locator(field).focus();
  await page.keyboard.type(text);
  await waitForSettledList(page);
}
