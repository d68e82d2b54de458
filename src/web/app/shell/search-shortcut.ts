import { useEffect } from 'react';

/** Whether the keyboard belongs to a field being typed in: the shortcut then stays a character. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.getAttribute('role') === 'textbox';
}

export const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);

/** The shortcut as the hint shows it: ⌘K on a Mac, Ctrl K elsewhere. */
export const shortcutLabel = () => (isMac() ? '⌘K' : 'Ctrl K');

const visible = (el: HTMLElement) => !el.closest('[hidden], [inert], [aria-hidden="true"]');

/**
 * The search box the shortcut focuses: the page's own list search (an input of the main area
 * labelled or placeholdered "Search …"), else the header's member search.
 */
export function findSearchBox(doc: Document = document): HTMLInputElement | null {
  const main = doc.getElementById('main-content');
  const inputs = main ? [...main.querySelectorAll<HTMLInputElement>('input')] : [];
  const named = (input: HTMLInputElement) =>
    [input.getAttribute('aria-label'), input.labels?.[0]?.textContent, input.placeholder].some((text) => text && /^\s*search/i.test(text));
  const list = inputs.find((input) => !input.disabled && input.type !== 'hidden' && visible(input) && named(input));
  if (list) return list;
  const header = doc.querySelector<HTMLInputElement>('input[aria-label="Search members"]');
  return header && visible(header) ? header : null;
}

/**
 * `/` and Ctrl+K (⌘K on a Mac) focus the search (issue 24): the list's search box on a list that
 * has one, the header's member search elsewhere. Not while typing in a field, and not while a
 * dialog is open.
 */
export function useSearchShortcut(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.altKey) return;
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey;
      const k = event.key.toLowerCase() === 'k' && !event.shiftKey && (isMac() ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey);
      if (!slash && !k) return;
      if (isTyping(event.target) || document.querySelector('[role="dialog"]')) return;
      const box = findSearchBox();
      if (!box) return;
      event.preventDefault();
      box.focus();
      box.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
