// Progressive enhancement: on a phone the settings tabs are one row that scrolls sideways; bring the
// current tab into view so the person sees where they are, on opening the page and when the window
// narrows (a phone turned upright). Without scripts the row starts at the left.
const strip = document.querySelector('.tabs ul');
const current = strip && strip.querySelector('a[aria-current="page"]');
function showCurrent() {
  if (strip.scrollWidth <= strip.clientWidth) return;
  const item = current.parentElement;
  const left = item.offsetLeft - strip.offsetLeft;
  // only when out of view: a row the person scrolled stays where they left it
  if (left >= strip.scrollLeft && left + item.offsetWidth <= strip.scrollLeft + strip.clientWidth) return;
  strip.scrollLeft = left - (strip.clientWidth - item.offsetWidth) / 2;
}
if (strip && current) {
  showCurrent();
  addEventListener('resize', showCurrent);
}
