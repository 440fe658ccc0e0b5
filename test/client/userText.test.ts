/**
 * What the client's input boxes accept and show: URNs of the right kind (checked with the
 * model's parser, with its message), descriptions on one line with `\n` for line breaks, and
 * readable labels for URNs in quick picks.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkUrnText, descriptionFromInput, descriptionToInput, urnLabel } from '../../client/src/userText';

describe('typed URNs', () => {
  test('a URN of the asked kind is accepted, in any namespace', () => {
    assert.equal(
      checkUrnText('urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features)', ['mlFeatureTable']),
      undefined,
    );
    assert.equal(checkUrnText(' urn:svc:mlModel:(urn:svc:dataPlatform:sagemaker,churn,PROD) ', ['mlModel']), undefined);
  });

  test('a URN of another kind says which kind it is', () => {
    assert.match(
      checkUrnText('urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)', ['mlModelGroup']) ?? '',
      /model group.*ML model/,
    );
  });

  test("a malformed URN gets the parser's message and position", () => {
    const msg = checkUrnText('urn:li:dataset:(urn:li:dataPlatform:hive,db.users)', ['dataset']) ?? '';
    assert.match(msg, /expected 3 parts/);
    assert.match(msg, /at character \d+/);
  });

  test('empty input and text that is no URN are refused with an example', () => {
    assert.match(checkUrnText('', ['mlFeature']) ?? '', /urn:li:mlFeature:\(/);
    assert.match(checkUrnText('user_features.age', ['mlFeature']) ?? '', /starts with 'urn:'/);
  });
});

describe('descriptions in a one-line input box', () => {
  test('line breaks are shown as \\n and come back as line breaks', () => {
    const text = 'Users of the shop.\n\n- one row per user\r\n- PII: email';
    assert.equal(descriptionToInput(text), 'Users of the shop.\\n\\n- one row per user\\n- PII: email');
    assert.equal(descriptionFromInput(descriptionToInput(text)), text.replace(/\r\n/g, '\n'));
  });

  test('a backslash survives the round trip', () => {
    const text = 'path C:\\new\\table and regex \\d+';
    assert.equal(descriptionFromInput(descriptionToInput(text)), text);
  });

  test('typed \\n becomes a line break; other backslashes stay', () => {
    assert.equal(descriptionFromInput('first\\nsecond \\t tab'), 'first\nsecond \\t tab');
  });
});

describe('URN labels in quick picks', () => {
  test('the decoded name, with platform and env as description', () => {
    assert.deepEqual(urnLabel('urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user%2Cfeatures)'), {
      label: 'user,features',
      description: 'feature table · feast',
    });
    assert.deepEqual(urnLabel('urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn_models,DEV)'), {
      label: 'churn_models',
      description: 'model group · mlflow · DEV',
    });
    assert.deepEqual(urnLabel('urn:li:mlFeature:(user_features,age)'), {
      label: 'age',
      description: 'feature of user_features',
    });
  });

  test('text that does not parse is shown as it is', () => {
    assert.deepEqual(urnLabel('urn:li:nope'), { label: 'urn:li:nope', description: '' });
  });
});
