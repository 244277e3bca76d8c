// Types for the commonmark-spec package (the CommonMark spec's examples,
// used by spec.test.ts).
declare module 'commonmark-spec' {
  export interface SpecExample {
    /** 1-based, as numbered in the spec. */
    number: number
    section: string
    markdown: string
    html: string
  }
  export const tests: SpecExample[]
  export const text: string
}
