// A tiny DOM builder and a region updater that leaves unchanged markup alone, so a refresh
// never replaces the button under a pointer or the keyboard focus without need.

export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "text") element.textContent = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

export function svg(tag, attrs, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Replace the region's children with `children` only when they differ, keeping the focus on
// the control with the same data-key when there is one.
export function updateRegion(region, children) {
  const fresh = document.createElement(region.tagName);
  append(fresh, [children]);
  if (fresh.childNodes.length === region.childNodes.length) {
    let same = true;
    for (let i = 0; i < fresh.childNodes.length && same; i++) {
      same = fresh.childNodes[i].isEqualNode(region.childNodes[i]);
    }
    if (same) return false;
  }
  const focused = document.activeElement;
  const focusKey = focused && region.contains(focused) ? focused.dataset.key : null;
  region.replaceChildren(...fresh.childNodes);
  if (focusKey) {
    const again = region.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus();
  }
  return true;
}

// Screen readers hear what changed; clearing first makes a repeated sentence heard again.
export function announce(region, text) {
  if (!text) return;
  region.textContent = "";
  window.setTimeout(() => {
    region.textContent = text;
  }, 50);
}
