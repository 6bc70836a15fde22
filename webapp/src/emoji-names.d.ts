// The build's virtual module (webapp/build.ts): upstream's emoji names by emoji code, canonical first.
declare module 'virtual:emoji-names' {
  const names: Record<string, string[]>;
  export default names;
}
