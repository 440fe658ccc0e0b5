/**
 * The looked-up-only kinds (model/src/kinds.ts `view`: users, groups, tags, glossary terms and
 * nodes, domains, containers, flows, jobs, charts, dashboards, data products, platforms) as
 * DataHub's GraphQL answers them, built from the aspects DataHub stores them in, the way its
 * mappers build them (datahub-graphql-core …/types/corpuser/mappers/CorpUserMapper,
 * CorpGroupMapper, TagMapper, GlossaryTermMapper (properties.description from
 * glossaryTermInfo.definition), GlossaryNodeMapper, DomainMapper, ContainerMapper, DataFlowMapper,
 * DataJobMapper, ChartMapper and DashboardMapper (properties.name from the info's title),
 * DataProductMapper, DataPlatformMapper). The key fields (`username`, `flowId`, `tool` …) are read
 * from the URN. Owners, tags, terms, domain, deprecation and lineage come from contextShapes.ts
 * (the endpoint's `moreFields`). Every field is a function, so a query pays only for what it selects.
 */
import { tupleParts } from '../../../model/src/entityNames';
import { isRecord } from '../../../model/src/json';
import { isViewKind, lookupGraphqlEntityTypeOf, viewOf, type ViewKind } from '../../../model/src/kinds';
import { parseUrn, type Urn } from '../../../model/src/urn';
import type { ReadContext } from './readShapes';

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The kind word of a URN (`corpuser`, `tag` …). */
export function kindWordOf(urn: Urn): string {
  return urn.kind === 'other' ? urn.entityType : urn.kind;
}

/** The id of a URN with a one-part key; a tuple key's parts, split at its top-level commas. */
function keyParts(urn: Urn): string[] {
  const id =
    urn.kind === 'other'
      ? urn.id
      : urn.kind === 'corpuser'
        ? urn.user
        : urn.kind === 'dataPlatform'
          ? urn.platform
          : '';
  if (!id.startsWith('(') || !id.endsWith(')')) return [id];
  return tupleParts(id);
}

/** Spec mode: some aspect of the entity is stored. DataHub mode: the same (its key aspect comes with the first write). */
export function viewExists(ctx: ReadContext, key: string): boolean {
  return ctx.store.hasAny(key);
}

function aspect(ctx: ReadContext, key: string, name: string): Json | undefined {
  const v = ctx.store.getRaw(key, name)?.value;
  return isRecord(v) ? v : undefined;
}

/** A node for a URN an aspect names (a parent node, a flow, a platform), or null when it is not one of these kinds. */
function referenced(ctx: ReadContext, text: string | null): Json | null {
  if (!text) return null;
  const parsed = parseUrn(text);
  const key = ctx.namespaces.keyOf(text);
  if (!parsed.ok || key === undefined) return null;
  const word = kindWordOf(parsed.urn);
  return isViewKind(word) ? viewNode(ctx, text, parsed.urn, word, key) : null;
}

/** A chain of parents through `next` (a term's nodes, a container's containers), nearest first, each once. */
function chain(ctx: ReadContext, first: string | null, next: (node: Json, key: string) => string | null): Json[] {
  const out: Json[] = [];
  const seen = new Set<string>();
  let text = first;
  while (text && !seen.has(text) && out.length < 20) {
    seen.add(text);
    const node = referenced(ctx, text);
    const key = ctx.namespaces.keyOf(text);
    if (!node || key === undefined) break;
    out.push(node);
    text = next(node, key);
  }
  return out;
}

function platformNode(ctx: ReadContext, text: string | null): Json {
  const node = referenced(ctx, text);
  if (node) return node;
  return {
    __typename: 'DataPlatform',
    urn: 'urn:li:dataPlatform:unknown',
    type: 'DATA_PLATFORM',
    name: 'unknown',
    properties: null,
  };
}

/** The fields of each kind, read from its aspects (`a(name)`) and its URN's key parts. */
function kindFields(ctx: ReadContext, kind: ViewKind, urn: Urn, key: string): Json {
  const a = (name: string): Json | undefined => aspect(ctx, key, name);
  const parts = keyParts(urn);
  const editedDescription = (name: string) => (): Json | null => {
    const e = a(name);
    return e ? { description: str(e['description']) } : null;
  };
  switch (kind) {
    case 'corpuser':
      return {
        username: parts[0],
        properties: () => {
          const i = a('corpUserInfo');
          if (!i) return null;
          return {
            active: i['active'] !== false,
            displayName: str(i['displayName']),
            email: str(i['email']),
            title: str(i['title']),
            firstName: str(i['firstName']),
            lastName: str(i['lastName']),
            fullName: str(i['fullName']),
          };
        },
        editableProperties: () => {
          const e = a('corpUserEditableInfo');
          if (!e) return null;
          return {
            displayName: str(e['displayName']),
            title: str(e['title']),
            aboutMe: str(e['aboutMe']),
            teams: strings(e['teams']),
            skills: strings(e['skills']),
            pictureLink: str(e['pictureLink']),
            slack: str(e['slack']),
            phone: str(e['phone']),
            email: str(e['email']),
          };
        },
      };
    case 'corpGroup':
      return {
        name: parts[0],
        properties: () => {
          const i = a('corpGroupInfo');
          if (!i) return null;
          return {
            displayName: str(i['displayName']),
            description: str(i['description']),
            email: str(i['email']),
            slack: str(i['slack']),
          };
        },
        editableProperties: () => {
          const e = a('corpGroupEditableInfo');
          if (!e) return null;
          return {
            description: str(e['description']),
            slack: str(e['slack']),
            email: str(e['email']),
            pictureLink: str(e['pictureLink']),
          };
        },
      };
    case 'tag':
      return {
        name: parts[0],
        properties: () => {
          const p = a('tagProperties');
          if (!p) return null;
          return { name: str(p['name']) ?? parts[0], description: str(p['description']), colorHex: str(p['colorHex']) };
        },
      };
    case 'glossaryTerm': {
      const id = parts[0]!;
      return {
        name: id.split('.').pop() ?? id,
        hierarchicalName: id,
        properties: () => {
          const i = a('glossaryTermInfo');
          if (!i) return null;
          const definition = str(i['definition']) ?? '';
          return {
            name: str(i['name']) ?? id.split('.').pop() ?? id,
            description: definition,
            definition,
            termSource: str(i['termSource']) ?? 'INTERNAL',
            sourceRef: str(i['sourceRef']),
            sourceUrl: str(i['sourceUrl']),
          };
        },
        parentNodes: () => parentNodes(ctx, str(a('glossaryTermInfo')?.['parentNode'])),
      };
    }
    case 'glossaryNode':
      return {
        properties: () => {
          const i = a('glossaryNodeInfo');
          if (!i) return null;
          return { name: str(i['name']) ?? parts[0], description: str(i['definition']) };
        },
        parentNodes: () => parentNodes(ctx, str(a('glossaryNodeInfo')?.['parentNode'])),
      };
    case 'domain':
      return {
        id: parts[0],
        properties: () => {
          const p = a('domainProperties');
          if (!p) return null;
          return { name: str(p['name']) ?? parts[0], description: str(p['description']) };
        },
      };
    case 'container': {
      const instance = (): Json | null => {
        const d = a('dataPlatformInstance');
        if (!d) return null;
        const platform = platformNode(ctx, str(d['platform']));
        const instanceId = str(d['instance']);
        return {
          __typename: 'DataPlatformInstance',
          urn: instanceId ?? platform['urn'],
          type: 'DATA_PLATFORM_INSTANCE',
          platform,
          instanceId: instanceId ?? '',
        };
      };
      const parents = (): Json[] =>
        chain(ctx, str(a('container')?.['container']), (_node, k) => str(aspect(ctx, k, 'container')?.['container']));
      return {
        platform: () => platformNode(ctx, str(a('dataPlatformInstance')?.['platform'])),
        dataPlatformInstance: instance,
        container: () => parents()[0] ?? null,
        parentContainers: () => {
          const list = parents();
          return { count: list.length, containers: list };
        },
        properties: () => {
          const p = a('containerProperties');
          if (!p) return null;
          return {
            name: str(p['name']) ?? parts[0],
            description: str(p['description']),
            externalUrl: str(p['externalUrl']),
            qualifiedName: str(p['qualifiedName']),
          };
        },
        editableProperties: editedDescription('editableContainerProperties'),
        subTypes: () => {
          const t = a('subTypes');
          return t ? { typeNames: strings(t['typeNames']) } : null;
        },
      };
    }
    case 'dataFlow':
      return {
        orchestrator: parts[0] ?? '',
        flowId: parts[1] ?? '',
        cluster: parts[2] ?? '',
        properties: () => {
          const i = a('dataFlowInfo');
          if (!i) return null;
          return {
            name: str(i['name']) ?? parts[1] ?? '',
            description: str(i['description']),
            project: str(i['project']),
            externalUrl: str(i['externalUrl']),
          };
        },
        editableProperties: editedDescription('editableDataFlowProperties'),
      };
    case 'dataJob':
      return {
        jobId: parts[parts.length - 1] ?? '',
        dataFlow: () => referenced(ctx, parts.length > 1 ? parts[0]! : null),
        properties: () => {
          const i = a('dataJobInfo');
          if (!i) return null;
          return {
            name: str(i['name']) ?? parts[parts.length - 1] ?? '',
            description: str(i['description']),
            externalUrl: str(i['externalUrl']),
          };
        },
        editableProperties: editedDescription('editableDataJobProperties'),
      };
    case 'chart':
    case 'dashboard': {
      const info = kind === 'chart' ? 'chartInfo' : 'dashboardInfo';
      const stamp = (v: unknown): Json => ({
        time: isRecord(v) && typeof v['time'] === 'number' ? v['time'] : 0,
        actor: isRecord(v) ? str(v['actor']) : null,
      });
      return {
        tool: parts[0] ?? '',
        [kind === 'chart' ? 'chartId' : 'dashboardId']: parts[1] ?? '',
        properties: () => {
          const i = a(info);
          if (!i) return null;
          const modified = isRecord(i['lastModified']) ? i['lastModified'] : {};
          return {
            name: str(i['title']) ?? parts[1] ?? '',
            description: str(i['description']),
            externalUrl: str(i['externalUrl']) ?? str(i[kind === 'chart' ? 'chartUrl' : 'dashboardUrl']),
            lastModified: stamp(modified['lastModified']),
            created: stamp(modified['created']),
          };
        },
        editableProperties: editedDescription(
          kind === 'chart' ? 'editableChartProperties' : 'editableDashboardProperties',
        ),
      };
    }
    case 'dataProduct':
      return {
        properties: () => {
          const p = a('dataProductProperties');
          if (!p) return null;
          return {
            name: str(p['name']) ?? parts[0],
            description: str(p['description']),
            externalUrl: str(p['externalUrl']),
            numAssets: Array.isArray(p['assets']) ? p['assets'].length : 0,
          };
        },
      };
    case 'mlPrimaryKey': {
      const props = (): Json | null => {
        const p = a('mlPrimaryKeyProperties');
        return p ? { description: str(p['description']), dataType: str(p['dataType']) } : null;
      };
      return {
        featureNamespace: parts[0] ?? '',
        name: parts[1] ?? '',
        description: () => props()?.['description'] ?? null,
        properties: props,
        editableProperties: editedDescription('editableMlPrimaryKeyProperties'),
      };
    }
    case 'query':
      return {
        properties: () => {
          const p = a('queryProperties');
          if (!p) return null;
          const statement = isRecord(p['statement']) ? p['statement'] : {};
          return {
            name: str(p['name']),
            description: str(p['description']),
            statement: {
              value: str(statement['value']) ?? '',
              // DataHub's QueryLanguage has SQL only.
              language: 'SQL',
            },
          };
        },
      };
    case 'dataPlatform':
      return {
        name: parts[0],
        properties: () => {
          const i = a('dataPlatformInfo');
          if (!i) return null;
          return {
            type: str(i['type']) ?? 'OTHERS',
            displayName: str(i['displayName']),
            datasetNameDelimiter: str(i['datasetNameDelimiter']) ?? '.',
            logoUrl: str(i['logoUrl']),
          };
        },
      };
  }
}

function parentNodes(ctx: ReadContext, first: string | null): Json {
  const nodes = chain(ctx, first, (_node, k) => str(aspect(ctx, k, 'glossaryNodeInfo')?.['parentNode']));
  return { count: nodes.length, nodes };
}

/** The node of an entity of a looked-up-only kind (the caller has resolved its key). */
export function viewNode(ctx: ReadContext, requested: string, urn: Urn, kind: ViewKind, key: string): Json {
  return {
    __typename: viewOf(kind).typename,
    urn: requested,
    type: lookupGraphqlEntityTypeOf(kind),
    exists: () => viewExists(ctx, key),
    ...kindFields(ctx, kind, urn, key),
    ...ctx.moreFields(ctx, kind, requested, key),
  };
}
