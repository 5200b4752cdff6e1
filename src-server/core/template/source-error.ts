/** A problem at a place in a template's text: 0-based offset, length and a message for the editor. */
export interface SourceError {
  position: number;
  length: number;
  message: string;
}
