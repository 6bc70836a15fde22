// Where an element sits in a scrolling container's content (its top, in pixels from the content's
// top), for the windowed lists: whatever the element's offsetParent is.
export const topWithin = (scroller: HTMLElement, el: HTMLElement): number =>
  el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
