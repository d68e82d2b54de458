import postcss, { type Container, type Rule } from 'postcss';

/** The class names an HTML page uses (its `class="…"` attributes). */
function classesOf(html: string): Set<string> {
  const classes = new Set<string>();
  for (const [, list] of html.matchAll(/\sclass="([^"]*)"/g)) for (const name of list.split(/\s+/)) if (name) classes.add(name);
  return classes;
}

/**
 * The classes a selector needs on the page for it to match anything, leniently: a class inside
 * `:not()`, `:where()`, `:is()` or `:has()` is not required (such a rule is kept), and states
 * (`:hover`, `[data-disabled]`, …) are ignored, so a rule for a state the page can reach after
 * hydration stays too.
 */
function requiredClasses(selector: string): string[] {
  let plain = selector;
  // Innermost functional pseudo-classes first, until none is left.
  for (let before = ''; before !== plain; ) {
    before = plain;
    plain = plain.replace(/:(?:not|where|is|has|-webkit-any|-moz-any)\([^()]*\)/g, '');
  }
  return [...plain.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]!);
}

/** Custom properties used by the kept CSS and the page itself, following `var()` through declarations. */
function usedVariables(root: postcss.Root, html: string): Set<string> {
  const definitions = new Map<string, string[]>();
  const direct: string[] = [html];
  root.walkDecls((decl) => {
    if (decl.prop.startsWith('--')) (definitions.get(decl.prop) ?? definitions.set(decl.prop, []).get(decl.prop)!).push(decl.value);
    else direct.push(decl.value);
  });
  const used = new Set<string>();
  const queue = direct.flatMap((text) => [...text.matchAll(/var\(\s*(--[\w-]+)/g)].map((m) => m[1]!));
  // A variable the page's own <style> defines from another one: follow those as well.
  for (const [, name, value] of html.matchAll(/(--[\w-]+)\s*:\s*([^;}]*)/g)) definitions.set(name!, [...(definitions.get(name!) ?? []), value!]);
  while (queue.length) {
    const name = queue.pop()!;
    if (used.has(name)) continue;
    used.add(name);
    for (const value of definitions.get(name) ?? []) for (const m of value.matchAll(/var\(\s*(--[\w-]+)/g)) queue.push(m[1]!);
  }
  return used;
}

function dropEmpty(container: Container): void {
  container.each((node) => {
    if (node.type === 'atrule' && node.nodes) {
      dropEmpty(node);
      if (node.nodes.length === 0) node.remove();
    } else if (node.type === 'rule' && node.nodes.length === 0) node.remove();
  });
}

/**
 * The part of a stylesheet a prerendered page needs for its first paint (issue 23): the rules whose
 * selectors can match its classes (and every rule without a class: element and root rules), the
 * keyframes and font faces, and only the custom properties those rules and the page use. The page
 * inlines this and loads the whole stylesheet after its first paint; the whole sheet repeats every
 * rule kept here, in its own order and after it, so once loaded the page looks as it would with
 * the whole sheet alone.
 */
export function criticalCss(css: string, html: string): string {
  const classes = classesOf(html);
  const root = postcss.parse(css);
  root.walkRules((rule: Rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as postcss.AtRule).name)) return;
    const keep = rule.selectors.some((selector) => requiredClasses(selector).every((name) => classes.has(name)));
    if (!keep) rule.remove();
  });
  const used = usedVariables(root, html);
  root.walkDecls((decl) => {
    if (decl.prop.startsWith('--') && !used.has(decl.prop)) decl.remove();
  });
  dropEmpty(root);
  return root.toString().replace(/\n\s*/g, '');
}
