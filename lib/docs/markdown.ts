import MarkdownIt from 'markdown-it';

/**
 * Markdown of the API reference (OpenAPI descriptions) and of the policy pages under /docs, rendered to HTML on
 * the server with markdown-it (CommonMark). Raw HTML in the source is escaped, not passed through, and
 * markdown-it refuses javascript:, vbscript: and data: links (except images), so the output is safe to insert.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** A block of Markdown (paragraphs, lists, headings) as HTML. */
export function markdownToHtml(source: string): string {
  return markdown.render(source);
}

/** One line of Markdown (code spans, links, emphasis) as inline HTML, without a wrapping paragraph. */
export function inlineMarkdownToHtml(source: string): string {
  return markdown.renderInline(source);
}
