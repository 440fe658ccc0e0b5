/**
 * The looked-up-only kinds (model/src/kinds.ts `view`: users, groups, tags, glossary terms and
 * nodes, domains, containers, flows, jobs, charts, dashboards, data products, platforms, platform
 * instances, runs, structured properties, assertions, incidents, notebooks, ownership types,
 * applications, forms, business attributes, data contracts) as DataHub's GraphQL answers them,
 * built from the aspects DataHub stores them in, the way its mappers build them
 * (datahub-graphql-core …/types/corpuser/mappers/CorpUserMapper, CorpGroupMapper, TagMapper,
 * GlossaryTermMapper (properties.description from glossaryTermInfo.definition),
 * GlossaryNodeMapper, DomainMapper, ContainerMapper, DataFlowMapper, DataJobMapper, ChartMapper and
 * DashboardMapper (properties.name from the info's title), DataProductMapper, DataPlatformMapper,
 * and for the kinds after them the mapper named at each: …/types/dataplatforminstance,
 * dataprocessinst, structuredproperty, assertion, incident, notebook, ownership, application,
 * form, businessattribute, datacontract). The key fields (`username`, `flowId`, `tool` …) are read
 * from the URN. Owners, tags, terms, domain, deprecation and lineage come from contextShapes.ts
 * (the endpoint's `moreFields`). Every field is a function, so a query pays only for what it selects.
 */
import { tupleParts } from '../../../model/src/entityNames';
import { isRecord } from '../../../model/src/json';
import { isCatalogKind, isViewKind, lookupGraphqlEntityTypeOf, viewOf, type ViewKind } from '../../../model/src/kinds';
import { parseUrn, type Urn } from '../../../model/src/urn';
import { entityNode, fieldType, type ReadContext } from './readShapes';

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const records = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isRecord) : []);
/** The URNs an aspect names in a list of URNs and in its list of edges (DataHub's `…Edges[].destinationUrn`, newer). */
const named = (v: Json | undefined, list: string, edges: string): string[] => [
  ...strings(v?.[list]),
  ...records(v?.[edges]).flatMap((e) => strings([e['destinationUrn']])),
];

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

/** A node for any looked-up kind an aspect names (a job's datasets, a dashboard's charts), written or not. */
function linked(ctx: ReadContext, text: string): Json | null {
  const parsed = parseUrn(text);
  const key = ctx.namespaces.keyOf(text);
  if (!parsed.ok || key === undefined) return null;
  return isCatalogKind(kindWordOf(parsed.urn)) ? entityNode(ctx, text, parsed.urn, key) : referenced(ctx, text);
}

interface RelationshipsArgs {
  input: { types: string[]; direction: 'INCOMING' | 'OUTGOING'; start?: number | null; count?: number | null };
}

/** One page of relationships as DataHub's EntityRelationshipsResultResolver answers it: `total` counts them all. */
function relationshipsPage(
  ctx: ReadContext,
  args: RelationshipsArgs,
  edges: ReadonlyArray<{ type: string; urn: string }>,
): Json {
  const start = Math.max(0, args.input.start ?? 0);
  const count = Math.max(0, Math.min(args.input.count ?? 10, 1000));
  const page = edges.slice(start, start + count);
  return {
    start,
    count: page.length,
    total: edges.length,
    relationships: page.map((e) => ({
      type: e.type,
      direction: args.input.direction,
      entity: () => linked(ctx, e.urn),
    })),
  };
}

/**
 * The relationships of an entity, of the types asked in the direction asked, from the aspects the
 * PDLs' @Relationship annotations name: a chart's `Consumes` (chartInfo.inputs), a dashboard's
 * `Contains` (dashboardInfo.charts) and `Consumes` (its datasets), a group's incoming
 * `IsMemberOfGroup` (corpuser groupMembership.groups) and `IsMemberOfNativeGroup`
 * (nativeGroupMembership.nativeGroups). Others are none.
 */
function relationships(ctx: ReadContext, key: string, args: RelationshipsArgs): Json {
  const types = new Set(args.input.types);
  const edges: Array<{ type: string; urn: string }> = [];
  const outgoing = (type: string, urns: string[]): void => {
    if (args.input.direction === 'OUTGOING' && types.has(type)) for (const urn of urns) edges.push({ type, urn });
  };
  const incoming = (type: string, aspect: string, list: string): void => {
    if (args.input.direction !== 'INCOMING' || !types.has(type)) return;
    for (const row of ctx.store.valuesOfAspect(aspect)) {
      const v = isRecord(row.value) ? row.value : undefined;
      if (strings(v?.[list]).some((u) => ctx.namespaces.keyOf(u) === key)) edges.push({ type, urn: row.urn });
    }
  };
  const chart = aspect(ctx, key, 'chartInfo');
  outgoing('Consumes', named(chart, 'inputs', 'inputEdges'));
  const dashboard = aspect(ctx, key, 'dashboardInfo');
  outgoing('Contains', named(dashboard, 'charts', 'chartEdges'));
  outgoing('Consumes', named(dashboard, 'datasets', 'datasetEdges'));
  incoming('IsMemberOfGroup', 'groupMembership', 'groups');
  incoming('IsMemberOfNativeGroup', 'nativeGroupMembership', 'nativeGroups');
  return relationshipsPage(ctx, args, edges);
}

/** DataHub's StdDataType of a data type's qualified name (DataTypeEntityMapper's table). */
const STD_DATA_TYPES: Record<string, string> = {
  'datahub.string': 'STRING',
  'datahub.number': 'NUMBER',
  'datahub.urn': 'URN',
  'datahub.rich_text': 'RICH_TEXT',
  'datahub.date': 'DATE',
};

/** A data type (`urn:li:dataType:datahub.string`): its dataTypeInfo when written, else what its id says. */
function dataTypeNode(ctx: ReadContext, text: string): Json {
  const parsed = parseUrn(text);
  const id = parsed.ok && parsed.urn.kind === 'other' ? parsed.urn.id : text;
  const key = ctx.namespaces.keyOf(text);
  const info = key === undefined ? undefined : aspect(ctx, key, 'dataTypeInfo');
  const qualifiedName = str(info?.['qualifiedName']) ?? id;
  return {
    __typename: 'DataTypeEntity',
    urn: text,
    type: 'DATA_TYPE',
    info: {
      type: STD_DATA_TYPES[qualifiedName] ?? 'OTHER',
      qualifiedName,
      displayName: str(info?.['displayName']),
      description: str(info?.['description']),
    },
  };
}

/** A structured property's value (PDL union of `string` and `double`) as GraphQL's PropertyValue. */
function propertyValue(v: unknown): Json | null {
  if (!isRecord(v)) return null;
  if (typeof v['string'] === 'string') return { __typename: 'StringValue', stringValue: v['string'] };
  const n = num(v['double']);
  return n === null ? null : { __typename: 'NumberValue', numberValue: n };
}

/** IncidentMapper's priority: the stored number 0–3, most urgent first. */
const PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

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
        relationships: (args: RelationshipsArgs) => relationships(ctx, key, args),
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
        // ParentDomainsResolver: domainProperties.parentDomain, then its parent …, nearest first.
        parentDomains: () => {
          const domains = chain(ctx, str(a('domainProperties')?.['parentDomain']), (_node, k) =>
            str(aspect(ctx, k, 'domainProperties')?.['parentDomain']),
          );
          return { count: domains.length, domains };
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
        // DataJobInputOutputMapper: the datasets and jobs of dataJobInputOutput (lists and edges).
        inputOutput: () => {
          const io = a('dataJobInputOutput');
          if (!io) return null;
          const nodes = (list: string, edges: string): Json[] =>
            named(io, list, edges).flatMap((u): Json[] => {
              const n = linked(ctx, u);
              return n ? [n] : [];
            });
          return {
            inputDatasets: () => nodes('inputDatasets', 'inputDatasetEdges'),
            outputDatasets: () => nodes('outputDatasets', 'outputDatasetEdges'),
            inputDatajobs: () => nodes('inputDatajobs', 'inputDatajobEdges'),
          };
        },
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
        relationships: (args: RelationshipsArgs) => relationships(ctx, key, args),
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
    case 'dataPlatformInstance':
      // DataPlatformInstanceMapper: platform and instance from the key, the rest from dataPlatformInstanceProperties.
      return {
        platform: () => platformNode(ctx, parts[0] ?? null),
        instanceId: parts[1] ?? '',
        properties: () => {
          const p = a('dataPlatformInstanceProperties');
          if (!p) return null;
          return { name: str(p['name']), description: str(p['description']), externalUrl: str(p['externalUrl']) };
        },
      };
    case 'dataProcessInstance':
      // DataProcessInstanceMapper (properties, the parent template of dataProcessInstanceRelationships)
      // and DataProcessInstanceRunEventMapper (`state`: the run events, newest first; the latest is kept here).
      return {
        properties: () => {
          const p = a('dataProcessInstanceProperties');
          if (!p) return null;
          const created = isRecord(p['created']) ? p['created'] : {};
          return {
            name: str(p['name']) ?? parts[0],
            externalUrl: str(p['externalUrl']),
            created: { time: num(created['time']) ?? 0, actor: str(created['actor']) },
          };
        },
        state: (args: { limit?: number | null }) => {
          const r = a('dataProcessInstanceRunEvent');
          if (!r || (args.limit ?? 1) < 1) return [];
          const result = isRecord(r['result']) ? r['result'] : undefined;
          return [
            {
              status: str(r['status']),
              attempt: num(r['attempt']),
              result: result
                ? { resultType: str(result['type']), nativeResultType: str(result['nativeResultType']) }
                : null,
              timestampMillis: num(r['timestampMillis']) ?? 0,
              durationMillis: num(r['durationMillis']),
            },
          ];
        },
        parentTemplate: () => {
          const t = str(a('dataProcessInstanceRelationships')?.['parentTemplate']);
          return t ? linked(ctx, t) : null;
        },
      };
    case 'structuredProperty': {
      // StructuredPropertyMapper: a definition is always answered, its defaults (a string property of
      // datasets) where none is written.
      const d = a('propertyDefinition');
      return {
        definition: () => ({
          qualifiedName: str(d?.['qualifiedName']) ?? '',
          displayName: str(d?.['displayName']),
          description: str(d?.['description']),
          cardinality: str(d?.['cardinality']) ?? 'SINGLE',
          immutable: d ? d['immutable'] === true : true,
          valueType: dataTypeNode(ctx, str(d?.['valueType']) ?? 'urn:li:dataType:datahub.string'),
          allowedValues: Array.isArray(d?.['allowedValues'])
            ? records(d['allowedValues']).flatMap((v) => {
                const value = propertyValue(v['value']);
                return value ? [{ value, description: str(v['description']) }] : [];
              })
            : null,
        }),
      };
    }
    case 'assertion': {
      // AssertionMapper (info) and AssertionRunEventResolver (`runEvents`: newest first, with the
      // counts of the runs it read; the latest run is what is kept here).
      return {
        info: () => {
          const i = a('assertionInfo');
          if (!i) return null;
          return {
            type: str(i['type']) ?? 'DATASET',
            description: str(i['description']),
            externalUrl: str(i['externalUrl']),
          };
        },
        runEvents: (args: { limit?: number | null; status?: string | null }) => {
          const r = a('assertionRunEvent');
          const events = r && (!args.status || r['status'] === args.status) ? [r] : [];
          const results = events.map((e) => (isRecord(e['result']) ? str(e['result']['type']) : null));
          return {
            total: events.length,
            failed: results.filter((t) => t === 'FAILURE').length,
            succeeded: results.filter((t) => t === 'SUCCESS').length,
            errored: results.filter((t) => t === 'ERROR').length,
            runEvents: events.slice(0, Math.max(0, args.limit ?? events.length)).map((e) => {
              const result = isRecord(e['result']) ? e['result'] : undefined;
              return {
                timestampMillis: num(e['timestampMillis']) ?? 0,
                lastObservedMillis: num(e['lastObservedMillis']),
                assertionUrn: str(e['assertionUrn']) ?? '',
                asserteeUrn: str(e['asserteeUrn']) ?? '',
                runId: str(e['runId']) ?? '',
                status: str(e['status']) ?? 'COMPLETE',
                result: result
                  ? {
                      type: str(result['type']) ?? 'INIT',
                      rowCount: num(result['rowCount']),
                      missingCount: num(result['missingCount']),
                      unexpectedCount: num(result['unexpectedCount']),
                      actualAggValue: num(result['actualAggValue']),
                      externalUrl: str(result['externalUrl']),
                    }
                  : null,
              };
            }),
          };
        },
      };
    }
    case 'incident': {
      // IncidentMapper: everything from incidentInfo. Without it DataHub's mapper fails ("Incident
      // does not exist"); here the non-null incidentType does, so the answer is an error as there.
      const i = a('incidentInfo');
      const status = isRecord(i?.['status']) ? i['status'] : undefined;
      const incidentStatus = status
        ? {
            state: str(status['state']) ?? 'ACTIVE',
            stage: str(status['stage']),
            message: str(status['message']),
          }
        : null;
      const priority = num(i?.['priority']);
      return {
        incidentType: i ? (str(i['type']) ?? 'CUSTOM') : null,
        customType: str(i?.['customType']),
        title: str(i?.['title']),
        description: str(i?.['description']),
        priority: priority === null ? null : (PRIORITIES[priority] ?? null),
        incidentStatus: i ? incidentStatus : null,
        status: i ? incidentStatus : null,
      };
    }
    case 'notebook':
      // NotebookMapper: tool and id from the key, notebookInfo, editableNotebookProperties.
      return {
        tool: parts[0] ?? '',
        notebookId: parts[1] ?? '',
        info: () => {
          const i = a('notebookInfo');
          if (!i) return null;
          return { title: str(i['title']), description: str(i['description']), externalUrl: str(i['externalUrl']) };
        },
        editableProperties: editedDescription('editableNotebookProperties'),
      };
    case 'ownershipType':
      // OwnershipTypeMapper: ownershipTypeInfo.
      return {
        info: () => {
          const i = a('ownershipTypeInfo');
          return i ? { name: str(i['name']) ?? parts[0], description: str(i['description']) } : null;
        },
      };
    case 'application':
      // ApplicationMapper (applicationProperties); numAssets counts the entities whose
      // `applications` aspect names this one.
      return {
        properties: () => {
          const p = a('applicationProperties');
          if (!p) return null;
          return {
            name: str(p['name']) ?? parts[0],
            description: str(p['description']),
            externalUrl: str(p['externalUrl']),
            numAssets: () =>
              ctx.store
                .valuesOfAspect('applications')
                .filter((r) =>
                  strings(isRecord(r.value) ? r.value['applications'] : undefined).some(
                    (u) => ctx.namespaces.keyOf(u) === key,
                  ),
                ).length,
          };
        },
      };
    case 'form':
      // FormMapper: formInfo (a form without one fails there and here: `info` is non-null).
      return {
        info: () => {
          const i = a('formInfo');
          if (!i) return null;
          return {
            name: str(i['name']) ?? '',
            description: str(i['description']),
            type: str(i['type']) ?? 'COMPLETION',
          };
        },
      };
    case 'businessAttribute':
      // BusinessAttributeMapper: businessAttributeInfo, its type through SchemaFieldDataTypeMapper.
      return {
        properties: () => {
          const i = a('businessAttributeInfo');
          if (!i) return null;
          return {
            name: str(i['name']) ?? parts[0],
            description: str(i['description']),
            type: i['type'] === undefined ? null : fieldType(i['type']),
          };
        },
      };
    case 'dataContract':
      // DataContractMapper: dataContractProperties (DataHub's mapper fails without it; here
      // `properties` is null, which the server reads the same way) and dataContractStatus.
      return {
        properties: () => {
          const p = a('dataContractProperties');
          return p ? { entityUrn: str(p['entity']) ?? '' } : null;
        },
        status: () => {
          const st = a('dataContractStatus');
          return st ? { state: str(st['state']) ?? 'ACTIVE' } : null;
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
