// A small XML writer: elements as data, rendered with every text and attribute escaped. The two
// documents FEL needs are a fixed tree of a few dozen nodes, which does not need a library.

export interface XmlElement {
  name: string;
  /** Undefined values are left out, so optional attributes are written as `attr: maybe`. */
  attributes?: Record<string, string | number | undefined>;
  children?: XmlElement[];
  text?: string;
}

// Characters XML 1.0 cannot carry at all; documents are checked before (lib/providers/fel/document.ts),
// so dropping them here only guards against a caller that skipped the check.
const NOT_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function escapeXmlText(text: string): string {
  return text.replace(NOT_IN_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Quotes and white space too: a parser would fold a raw line feed in an attribute into a space. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** The document, with its declaration, on one line (what is signed must not depend on indentation). */
export function renderXmlDocument(root: XmlElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${renderElement(root)}`;
}

export function renderElement(element: XmlElement): string {
  const attributes = Object.entries(element.attributes ?? {})
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
  const children = element.children ?? [];
  if (children.length === 0 && element.text === undefined) return `<${element.name}${attributes}/>`;
  const content = element.text !== undefined ? escapeXmlText(element.text) : children.map(renderElement).join('');
  return `<${element.name}${attributes}>${content}</${element.name}>`;
}
