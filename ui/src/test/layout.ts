// jsdom lays nothing out: every size and position is 0. The long lists
// (virtual.tsx) draw what is in view of their page, so their tests give the page
// a view and the lists a place in it.
import { vi } from 'vitest';

/**
 * Gives each page (`.page`) a view `view` px high, and puts each long list
 * (`.virtual`) `listTop` px from the top of its page's content: where it is on
 * screen follows the page's `scrollTop`, as in a browser.
 */
export function layOut({ view = 600, listTop = 0 }: { view?: number; listTop?: number } = {}) {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this.classList.contains('page') ? view : 0;
  });
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const page = this.closest('.page');
    const top = this.classList.contains('virtual') && page ? listTop - page.scrollTop : 0;
    return new DOMRect(0, top, 400, 0);
  });
}
