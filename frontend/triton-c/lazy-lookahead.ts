/**
 * Chevrotain's LL(k) lookahead strategy with each lookahead function built on its first use,
 * instead of all of them while the parser is built (`performSelfAnalysis`): a kernel reaches a
 * fraction of the grammar's alternatives and repetitions, and building every function was a
 * quarter of the parser's construction, ~30 ms of each Triton-C compile. A function depends only
 * on the grammar recorded by then, so the one built later is the one that would have been built
 * up front, and the parse is the same.
 */
import { LLkLookaheadStrategy, type BaseParser, type ILookaheadStrategy, type IOrAlt } from 'chevrotain';

type AlternationOptions = Parameters<ILookaheadStrategy['buildLookaheadForAlternation']>[0];
type OptionalOptions = Parameters<ILookaheadStrategy['buildLookaheadForOptional']>[0];

/** `LLkLookaheadStrategy` building each lookahead function when the parser first calls it. */
export class LazyLookaheadStrategy extends LLkLookaheadStrategy {
  override buildLookaheadForAlternation(options: AlternationOptions): (orAlts?: IOrAlt<unknown>[]) => number | undefined {
    let built: ((orAlts?: IOrAlt<unknown>[]) => number | undefined) | undefined;
    const build = () => (built ??= super.buildLookaheadForAlternation(options));
    return function (this: BaseParser, orAlts?: IOrAlt<unknown>[]) {
      return build().call(this, orAlts);
    };
  }

  override buildLookaheadForOptional(options: OptionalOptions): () => boolean {
    let built: (() => boolean) | undefined;
    const build = () => (built ??= super.buildLookaheadForOptional(options));
    return function (this: BaseParser) {
      return build().call(this);
    };
  }
}
