// Short user text (custom profile field values, channel descriptions, scheduled-message previews)
// renders with the message renderer (lib/render), without organization data: mentions and channel
// links stay text. Quotes in text are escaped as &quot;, as the values stored so far were rendered.
export { renderPlainMarkdown as renderMarkdown } from './render';
