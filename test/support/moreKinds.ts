/**
 * Entities of the looked-up-only kinds the sample does not hold (a platform instance, a run, an
 * incident, a notebook, an application, a form, a business attribute, a data contract), written
 * by a test through ingestProposalBatch as DataHub's sources write them.
 */
import { SAMPLE } from '../../catalog/src/sample';
import { ingestBatch } from './catalogHttp';

const stamp = { time: 1735689600000, actor: 'urn:li:corpuser:datahub' };

export const MORE = {
  platformInstance: 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:snowflake,eu_prod)',
  /** Deprecated, replaced by eu_prod. */
  oldPlatformInstance: 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:snowflake,eu_legacy)',
  run: 'urn:li:dataProcessInstance:5e9f0b7d3c2a41e8a6b4c1d2e3f40516',
  incident: 'urn:li:incident:8d1c7f4e-2b3a-4c5d-9e6f-0a1b2c3d4e5f',
  notebook: 'urn:li:notebook:(querybook,773)',
  application: 'urn:li:application:revenue-app',
  form: 'urn:li:form:quarterly-certification',
  businessAttribute: 'urn:li:businessAttribute:customer_email',
  dataContract: 'urn:li:dataContract:revenue-contract',
} as const;

export const MORE_PROPOSALS: Array<{ entityType: string; urn: string; aspectName: string; value: unknown }> = [
  {
    entityType: 'dataPlatformInstance',
    urn: MORE.platformInstance,
    aspectName: 'dataPlatformInstanceProperties',
    value: { name: 'Snowflake EU', description: 'The EU production account.' },
  },
  {
    entityType: 'dataPlatformInstance',
    urn: MORE.oldPlatformInstance,
    aspectName: 'dataPlatformInstanceProperties',
    value: { name: 'Snowflake EU (legacy)' },
  },
  {
    entityType: 'dataPlatformInstance',
    urn: MORE.oldPlatformInstance,
    aspectName: 'deprecation',
    value: { deprecated: true, note: 'Moved to eu_prod.', actor: SAMPLE.user, replacement: MORE.platformInstance },
  },
  {
    entityType: 'dataProcessInstance',
    urn: MORE.run,
    aspectName: 'dataProcessInstanceProperties',
    value: { name: 'load_revenue 2025-01-01', created: stamp },
  },
  {
    entityType: 'dataProcessInstance',
    urn: MORE.run,
    aspectName: 'dataProcessInstanceRelationships',
    value: { parentTemplate: SAMPLE.jobs.load, upstreamInstances: [] },
  },
  {
    entityType: 'dataProcessInstance',
    urn: MORE.run,
    aspectName: 'dataProcessInstanceRunEvent',
    value: {
      timestampMillis: stamp.time,
      status: 'COMPLETE',
      attempt: 1,
      result: { type: 'FAILURE', nativeResultType: 'airflow' },
    },
  },
  {
    entityType: 'incident',
    urn: MORE.incident,
    aspectName: 'incidentInfo',
    value: {
      type: 'FRESHNESS',
      title: 'Revenue is a day late',
      description: 'The nightly load did not run.',
      entities: [SAMPLE.datasets.revenue],
      priority: 1,
      status: { state: 'ACTIVE', stage: 'INVESTIGATION', lastUpdated: stamp },
      created: stamp,
    },
  },
  {
    entityType: 'notebook',
    urn: MORE.notebook,
    aspectName: 'notebookInfo',
    value: {
      title: 'Revenue deep dive',
      description: 'Where the revenue comes from.',
      changeAuditStamps: { created: stamp, lastModified: stamp },
    },
  },
  {
    entityType: 'application',
    urn: MORE.application,
    aspectName: 'applicationProperties',
    value: { name: 'Revenue app', description: 'The service that books revenue.' },
  },
  {
    entityType: 'dataset',
    urn: SAMPLE.datasets.revenue,
    aspectName: 'applications',
    value: { applications: [MORE.application] },
  },
  {
    entityType: 'form',
    urn: MORE.form,
    aspectName: 'formInfo',
    value: {
      name: 'Quarterly certification',
      description: 'Owners confirm the description.',
      type: 'VERIFICATION',
      prompts: [],
      actors: { owners: true },
    },
  },
  {
    entityType: 'businessAttribute',
    urn: MORE.businessAttribute,
    aspectName: 'businessAttributeInfo',
    value: {
      fieldPath: 'customer_email',
      name: 'Customer email',
      description: 'An email address of a customer.',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      created: stamp,
      lastModified: stamp,
    },
  },
  {
    entityType: 'dataContract',
    urn: MORE.dataContract,
    aspectName: 'dataContractProperties',
    value: { entity: SAMPLE.datasets.revenue, freshness: [], schema: [], dataQuality: [] },
  },
  {
    entityType: 'dataContract',
    urn: MORE.dataContract,
    aspectName: 'dataContractStatus',
    value: { state: 'ACTIVE' },
  },
];

/** Writes MORE_PROPOSALS to the catalog at `url`; throws unless it answers 200. */
export async function writeMoreKinds(url: string): Promise<void> {
  const status = await ingestBatch(url, MORE_PROPOSALS);
  if (status !== 200) throw new Error(`writing the other kinds answered ${status}`);
}
