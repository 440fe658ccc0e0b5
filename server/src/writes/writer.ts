/**
 * What differs between the two write paths (`catalogLens.writePath`): each writer writes a
 * description or a link its own way (aspectWriter.ts: read-merge-write of aspects; graphqlWriter.ts:
 * DataHub's mutations). The commands call the writer they are given (writerFor.ts) and never read
 * the setting; what both paths do alike (member lists, createEntity) stays in the commands.
 */
import type { AspectName, EDITABLE_ML_ASPECT } from '../../../model/src/aspects';
import type { GqlDataset } from '../../../model/src/readShapes';
import type { Settings } from '../../../model/src/protocol';
import type { LinkArg, ParsedArg } from './args';
import type { StepDeps } from './catalogSteps';

/** An ML kind whose description a command writes. */
export type MlKind = keyof typeof EDITABLE_ML_ASPECT;

export interface Writer {
  readonly path: Settings['writePath'];
  /**
   * Sets the description of `dataset` (as resolved just now; undefined when the catalog answered
   * no dataset). `note` tells the user how it was written when that is not the writer's usual way.
   */
  setDescription(
    ctx: StepDeps,
    urn: ParsedArg,
    dataset: GqlDataset | undefined,
    description: string,
  ): Promise<{ written: boolean; note: string }>;
  /** Adds a link to a dataset unless one with its url is there; answers whether it added one. */
  addLink(ctx: StepDeps, urn: ParsedArg, link: LinkArg): Promise<boolean>;
  /** Sets the description of the column `fieldPath` (the schema's own path); answers whether it wrote. */
  setColumnDescription(
    ctx: StepDeps,
    urn: ParsedArg,
    dataset: GqlDataset,
    fieldPath: string,
    description: string,
  ): Promise<boolean>;
  /**
   * Sets the description of an ML entity; the aspect path writes it into `where`. Answers the
   * aspect written and how (`note`), or undefined when it already said so.
   */
  setMlDescription(
    ctx: StepDeps,
    urn: ParsedArg,
    kind: MlKind,
    where: AspectName,
    description: string,
  ): Promise<{ aspect: AspectName; note: string } | undefined>;
}

/** What a write command works with: the run's context and the writer of its settings. */
export interface CommandDeps extends StepDeps {
  writer: Writer;
}
