// TeX, as upstream renders it server-side: KaTeX's HTML and MathML (the `katex` package), inline
// for `$$…$$` and in display mode for ```math blocks. What KaTeX refuses renders as upstream's
// `tex-error` span around the source, escaped (see the callers in inline.ts and blocks.ts).
import katex from 'katex';

/** KaTeX's HTML for `tex`, or null when it is not valid TeX (upstream then shows a tex-error span). */
export const renderTex = (tex: string, display: boolean): string | null => {
  try {
    // strict: 'ignore' only silences KaTeX's console warnings (Unicode text in math); the HTML is
    // the same as with the default. maxExpand (KaTeX's default 1000) bounds hostile macros.
    return katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: 'ignore' });
  } catch {
    return null;
  }
};
