/** URNs one part away from a catalog entity (env, platform, case, two parts, feature table), for did-you-mean tests. */
export const NEAR = {
  env: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PORD)',
  dev: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,DEV)',
  platform: 'urn:li:dataset:(urn:li:dataPlatform:hiv,db.users,PROD)',
  case: 'urn:li:dataset:(urn:li:dataPlatform:hive,DB.USERS,PROD)',
  twoParts: 'urn:li:dataset:(urn:li:dataPlatform:hiv,db.usres,DEV)',
  table: 'urn:li:mlFeature:(user_table,age)',
};
/** The same dataset name on another platform than hive. */
export const SNOWFLAKE_USERS = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,db.users,PROD)';
