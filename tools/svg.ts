/**
 * Small helpers shared by the SVG pictures (`--view-op-graph`, `--view-layout`).
 */

/** Escapes text for XML content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
